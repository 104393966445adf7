"""Discovery on the LAN with real zeroconf on the loopback interface: two games advertised at
once are both found, with what they advertise; the seats taken follow; a withdrawn game is gone;
the same from a plain thread. Attacks: an advertisement that lies about the host's fingerprint
leads the join to a host it refuses (``test_attack_...``), malformed or oversize properties are
ignored and never crash the browse, and nothing the parser is given can make it raise.

Other programs on this machine (other tests) may advertise games too: every check looks only at
the games a test advertised itself, by port and fingerprint."""

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st
from zeroconf import IPVersion, ServiceInfo
from zeroconf.asyncio import AsyncZeroconf

from net.session.commands import discovery
from net.session.commands.discovery import (
    SERVICE,
    Advertiser,
    Offer,
    advertise,
    async_browse,
    browse,
    parse,
)
from net.session.commands.hosting import Hosting, HostSettings, seat_session
from net.session.machines.peer_session import PeerSession
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tests.net.conftest import new_game
from tests.net.test_adapters import serve_on_loopback

LOOPBACK = ["127.0.0.1"]
SECONDS = 2.0  # past zeroconf's second question, answered by multicast (discovery's rules)


def _offer(port, game="medici", players=4, seated=1, host="Hosty", code=True, fp=None):
    fp = fp or Identity.generate().fingerprint
    return Offer(game, players, seated, host, fp, code, port, ("127.0.0.1",))


def _ours(found, *offers):
    keys = {(o.port, o.fingerprint) for o in offers}
    return {f.port: f for f in found if (f.port, f.fingerprint) in keys}


def _browse_until(ok, *offers, tries=3):
    """Our games in a browse, browsing again (at most ``tries`` times) until ``ok`` holds of
    them: on a busy machine an update's answer can miss one browse's window."""
    for _ in range(tries):
        found = _ours(browse(SECONDS, LOOPBACK), *offers)
        if ok(found):
            break
    return found


async def _abrowse_until(ok, pick, tries=3):
    """``_browse_until`` in the event loop (the advertisers of the test run in it too), for
    what ``pick`` takes of a browse's games."""
    for _ in range(tries):
        got = pick(await async_browse(SECONDS, LOOPBACK))
        if ok(got):
            break
    return got


async def test_two_games_at_once_are_found_with_what_they_advertise():
    a = Advertiser(_offer(41001, "medici", 4, 1, "Hosty", code=True), LOOPBACK)
    b = Advertiser(_offer(41002, "condottiere", 3, 2, "Bo", code=False), LOOPBACK)
    a.start()
    b.start()
    try:
        assert await a.registered() and await b.registered()
        found = await _abrowse_until(lambda f: set(f) == {41001, 41002},
                                     lambda found: _ours(found, a.offer, b.offer))
        assert set(found) == {41001, 41002}
        fa, fb = found[41001], found[41002]
        assert (fa.game, fa.players, fa.seated, fa.host, fa.code) == ("medici", 4, 1, "Hosty", True)
        assert (fb.game, fb.players, fb.seated, fb.host, fb.code) == ("condottiere", 3, 2, "Bo",
                                                                      False)
        assert fa.fingerprint == a.offer.fingerprint and fa.join_address == "127.0.0.1:41001"
        assert fa.lines() == ("Court of the Medici, 1/4 seated, code needed",
                              f"host Hosty [{fa.fingerprint}] at 127.0.0.1:41001")
        a.seated(3)  # a seat taken: the advertisement follows
        found = await asyncio.to_thread(
            _browse_until, lambda f: set(f) == {41001, 41002} and f[41001].seated == 3,
            a.offer, b.offer)
        assert set(found) == {41001, 41002}, found
        assert found[41001].seated == 3 and found[41002].seated == 2
        await b.close()  # withdrawn: gone from the next browse
        found = _ours(await async_browse(SECONDS, LOOPBACK), a.offer, b.offer)
        assert set(found) == {41001}
    finally:
        await a.close()
        await b.close()


def test_a_plain_thread_advertises_updates_and_withdraws():
    offer = _offer(41003, "condottiere", 2, 0, "Thread", code=False)
    ad = advertise(offer, LOOPBACK)
    try:
        found = _browse_until(lambda f: 41003 in f, offer)
        assert found[41003].seated == 0 and not found[41003].code
        ad.update(1)
        found = _browse_until(lambda f: f.get(41003) and f[41003].seated == 1, offer)
        assert 41003 in found and found[41003].seated == 1, found
    finally:
        ad.close()
    assert _ours(browse(SECONDS, LOOPBACK), offer) == {}


def test_the_properties_carry_no_code_and_the_fingerprint_of_the_key():
    key = Identity.generate()
    offer = _offer(41004, fp=key.fingerprint)
    props = discovery.properties(offer)
    assert set(props) == {"v", "game", "players", "seated", "host", "fp", "code"}
    assert props["fp"] == key.fingerprint and props["code"] == "1"
    assert all(len(v.encode()) <= discovery.VALUE_LIMIT for v in props.values())


# -- attacks ------------------------------------------------------------------------------------


def test_attack_a_host_whose_key_is_not_the_advertised_fingerprint_is_refused_sans_io():
    g = new_game(3)
    honest = PeerSession(Identity.generate(), "ada", host_fingerprint=g.host.identity.fingerprint)
    g.link.add(honest)
    g.link.pump()
    assert honest.state == "lobby" and len(g.host.seats) == 1
    lied = PeerSession(Identity.generate(), "bo", host_fingerprint=Identity.generate().fingerprint)
    g.link.add(lied)
    g.link.pump()
    assert lied.state == "failed" and "host key check" in str(lied.error)
    assert len(g.host.seats) == 1  # no hello went out: nothing was signed for that host


async def test_attack_a_forged_advertisement_leads_to_a_host_the_join_refuses(tmp_path,
                                                                            monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    g = new_game(3)
    runner, serving, port = await serve_on_loopback(g.host)
    # a machine on the LAN advertises the real host's address with a key of its own choosing
    forged = Advertiser(_offer(port, "medici", 3, 0, "Trusty", fp=Identity.generate().fingerprint),
                        LOOPBACK)
    forged.start()
    try:
        assert await forged.registered()
        found = (await _abrowse_until(lambda f: port in f,
                                      lambda found: _ours(found, forged.offer)))[port]
        session = seat_session(Identity.generate(), "ada", None,
                               host_fingerprint=found.fingerprint)
        await PeerRunner(session, found.address, found.port, retries=0).run()
        assert session.state == "failed"
        assert "host key check" in str(session.error)
        assert g.host.identity.fingerprint in str(session.error)
        assert g.host.seats == []
    finally:
        await forged.close()
        runner.stop()
        await serving


async def _register_raw(zc, port, props, name):
    info = ServiceInfo(SERVICE, f"{name}.{SERVICE}", port=port, properties=props,
                       server=f"{name}.local.", parsed_addresses=["127.0.0.1"])
    await (await zc.async_register_service(info))
    return info


async def test_attack_malformed_and_oversize_properties_are_ignored_without_a_crash():
    good_fp = Identity.generate().fingerprint
    good = {"v": "3", "game": "medici", "players": "3", "seated": "1", "host": "ok",
            "fp": good_fp, "code": "1"}
    bad = [
        {k: v for k, v in good.items() if k != "fp"},  # a property missing
        {**good, "fp": "0" * 200},  # oversize
        {**good, "host": "x" * 64 + "y"},  # over the value limit
        {**good, "host": b"\xff\xfe\xfd"},  # not UTF-8
        {**good, "host": "\x1b[2Jhi"},  # not printable
        {**good, "seated": "5"},  # more seated than wanted
        {**good, "players": "abc"},
        {**good, "players": "99999999"},
        {**good, "game": "chess"},
        {**good, "v": "2"},
        {**good, "code": "maybe"},
        {**good, "fp": "zzzz-zzzz-zzzz-zzzz"},
        {**good, "fp": None},  # a key with no value
        {**good, **{f"pad{i}": "p" * 200 for i in range(20)}},  # a big record, still parsed
    ]
    async with AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only) as zc:
        await asyncio.gather(_register_raw(zc, 41100, good, "good-41100"),
                             *(_register_raw(zc, 41101 + i, props, f"bad-{41101 + i}")
                               for i, props in enumerate(bad)))
        def ports(found):
            return {f.port for f in found if 41100 <= f.port <= 41100 + len(bad)}

        found = await _abrowse_until(lambda f: {41100, 41101 + len(bad) - 1} <= ports(f), list)
    ours = ports(found)
    assert 41100 in ours
    # only the big record with every property well formed is a game; the others are ignored
    assert ours == {41100, 41101 + len(bad) - 1}
    assert all(f.host.isprintable() for f in found)


_value = st.one_of(st.none(), st.binary(max_size=80),
                   st.sampled_from([b"1", b"0", b"3", b"medici", b"condottiere", b"abcd-0123-4567-89ef"]))


@given(port=st.one_of(st.none(), st.integers(-5, 70000)),
       addresses=st.lists(st.sampled_from(["127.0.0.1", "10.0.0.2", "::1", "nonsense", ""]),
                          max_size=3),
       props=st.dictionaries(st.sampled_from([b"v", b"game", b"players", b"seated", b"host", b"fp",
                                              b"code", b"x"]), _value))
def test_attack_no_advertisement_makes_the_parser_raise(port, addresses, props):
    f = parse(port, addresses, props)
    if f is not None:
        assert 0 < f.port < 65536 and 0 <= f.seated <= f.players
        assert f.host.isprintable() and len(f.fingerprint) == 19 and f.address in f.addresses
        assert props[b"v"] == b"3"


async def _until_found(fingerprint, seated, interfaces=LOOPBACK):
    for _ in range(60):  # a hang guard, never a timed assertion
        found = [f for f in await async_browse(SECONDS, interfaces) if f.fingerprint == fingerprint]
        if found and found[0].seated == seated:
            return found[0]
    raise AssertionError(f"no advertisement of {fingerprint} with {seated} seated")


async def test_a_hosted_game_is_advertised_as_its_seats_fill_and_withdrawn_at_its_end(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    settings = HostSettings("condottiere", 3, {}, port=0, bind="127.0.0.1", bots=1,
                            name="Hosty", advertise=True, new=True)
    hosting = Hosting(settings, print)
    fp = hosting.session.identity.fingerprint
    serving = asyncio.create_task(hosting.serve(hosting.own_seat(), hosting.make_bot()))
    found = await _until_found(fp, 2)  # the host's own seat and its computer seat
    assert (found.game, found.players, found.host, found.code) == ("condottiere", 3, "Hosty", True)
    assert hosting.code not in str(found)
    hosting.runner.stop()
    await serving
    assert [f for f in await async_browse(SECONDS, LOOPBACK) if f.fingerprint == fp] == []


async def test_a_host_told_not_to_advertise_is_not_found(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    quiet = Hosting(HostSettings("medici", 3, {}, port=0, bind="127.0.0.1", name="Quiet",
                                 advertise=False, new=True), print)
    loud = Hosting(HostSettings("medici", 3, {}, port=0, bind="127.0.0.1", name="Loud",
                                advertise=True, new=True, identity=str(tmp_path / "loud.key")),
                   print)
    tasks = [asyncio.create_task(h.serve(h.own_seat(), h.make_bot())) for h in (quiet, loud)]
    try:
        await _until_found(loud.session.identity.fingerprint, 1)  # started with it, and out
        found = await async_browse(SECONDS, LOOPBACK)
        assert all(f.fingerprint != quiet.session.identity.fingerprint for f in found)
    finally:
        for h in (quiet, loud):
            h.runner.stop()
        await asyncio.gather(*tasks)


@pytest.mark.long
async def test_a_failure_to_advertise_is_one_log_line_and_the_game_goes_on(tmp_path, monkeypatch,
                                                                         caplog):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(discovery, "INTERFACES", ["203.0.113.9"])  # no interface of this machine
    hosting = Hosting(HostSettings("medici", 3, {}, port=0, bind="127.0.0.1", bots=1,
                                   advertise=True, new=True), print)
    serving = asyncio.create_task(hosting.serve(hosting.own_seat(), hosting.make_bot()))
    for _ in range(1000):  # a hang guard, never a timed assertion
        if any("not advertised" in r.getMessage() for r in caplog.records):
            break
        await asyncio.sleep(0.01)
    said = [r.getMessage() for r in caplog.records if "advertised" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("the game is not advertised on the LAN: ")
    late = seat_session(Identity.generate(), "late", hosting.code)
    conn = hosting.runner.add(late, hosting.make_bot())  # the third seat: the game is played
    hosting.runner.pump()
    for _ in range(100_000):  # a hang guard, never a timed assertion
        if late.state == "over":
            break
        await asyncio.sleep(0.01)
    assert late.state == "over" and hosting.session.finished
    hosting.runner.drop(conn)  # it leaves after its game, as a program does: no rematch
    await serving
