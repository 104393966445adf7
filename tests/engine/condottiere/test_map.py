"""The board: 17 regions, 34 symmetric borders, and connected-group sizes."""

from __future__ import annotations

from engine.condottiere.cards import (
    BORDERS,
    NEIGHBOURS,
    REGIONS,
    group_of,
    largest_group,
    mask_of,
    region_index,
)


def regions(*names: str) -> int:
    return mask_of([region_index(n) for n in names])


def test_seventeen_regions_and_thirty_four_borders() -> None:
    assert len(REGIONS) == len(set(REGIONS)) == 17
    assert len(BORDERS) == 34
    assert len({frozenset(b) for b in BORDERS}) == 34
    assert all(a != b for a, b in BORDERS)


def test_borders_are_symmetric_and_match_the_neighbour_masks() -> None:
    for r in range(17):
        for q in range(17):
            assert bool(NEIGHBOURS[r] >> q & 1) == bool(NEIGHBOURS[q] >> r & 1)
    assert sum(bin(m).count("1") for m in NEIGHBOURS) == 2 * 34
    assert NEIGHBOURS[region_index("Torino")] == regions("Milano", "Genova")
    assert NEIGHBOURS[region_index("Napoli")] == regions("Spoleto", "Ancona", "Roma")
    assert bin(NEIGHBOURS[region_index("Firenze")]).count("1") == 7


def test_the_whole_board_is_one_group() -> None:
    assert largest_group((1 << 17) - 1) == 17


def test_connected_group_sizes_on_hand_made_examples() -> None:
    assert largest_group(0) == 0
    assert largest_group(regions("Roma")) == 1
    assert largest_group(regions("Torino", "Napoli")) == 1
    # a chain is enough
    assert largest_group(regions("Torino", "Milano", "Venezia", "Ferrara")) == 4
    assert largest_group(regions("Torino", "Genova", "Parma", "Lucca", "Firenze")) == 5
    # two groups: the larger counts
    assert largest_group(regions("Torino", "Milano", "Roma", "Napoli", "Spoleto")) == 3
    assert largest_group(regions("Venezia", "Genova", "Siena", "Ancona")) == 1
    assert group_of(regions("Torino", "Milano", "Roma"), region_index("Roma")) == regions("Roma")
    assert group_of(regions("Torino", "Milano"), region_index("Roma")) == 0


def test_region_names_parse() -> None:
    assert region_index(" firenze ") == REGIONS.index("Firenze")
    try:
        region_index("Pisa")
    except ValueError as e:
        assert "Pisa" in str(e)
    else:
        raise AssertionError("Pisa is not on the board")
