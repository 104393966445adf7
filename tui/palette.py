"""The players' colours, and the measures that choose them.

Every seat is drawn in a colour of its own, and its name is always written too, so that no
meaning rests on colour alone. The colours are held to three measures (``tests/tui/test_palette``):

* contrast: at least 4.5:1 (the WCAG measure, ``contrast``) against the background and the
  surface of every theme offered, in true colour and once brought down to the 256 colours of
  an xterm (as Rich does for a 256-colour terminal), and in the greys of ``NO_COLOR`` (Textual's
  monochrome filter, ``monochrome``);
* distinct: once seen through protanopia, deuteranopia and tritanopia (Machado, Oliveira and
  Fernandes' matrices at full severity, ``simulate``), any two seats' colours are still at least
  ``MIN_DISTANCE`` apart (CIE76 distance in Lab, ``distance``);
* named: in a 16-colour terminal each seat is drawn in the colour of its name (Red in red,
  Yellow in yellow; Black as black on white), from the 16 colours Rich knows.

The Black seat is drawn black on a light chip (its ``background``), which counts as its colour.
Court of the Medici's houses take four of these colours: Orsini red, Colonna blue, Delle Rovere
yellow, Gonzaga green.

``use(color_system)`` picks the colours for the terminal (the app calls it when it starts);
``SeatStyles`` is a tuple-like of Rich style strings that follows it, so the tables' drawing
code indexes it as a plain tuple. ``theme_ok(theme)`` says whether a Textual theme keeps the
contrast; the app offers only the themes that do.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Literal, TypeVar

T = TypeVar("T")

#: seat colours in true colour (each in the xterm 256-colour cube, so 256 colours show the same)
COLOURS: dict[str, str] = {
    "Red": "#ff8787",
    "Blue": "#afd7ff",
    "Green": "#5fff87",
    "Yellow": "#ffd700",
    "Purple": "#d787ff",
}
#: the Black seat: black letters on a light chip
BLACK_ON = "#c6c6c6"

#: the same seats in a 16-colour terminal: exactly the bright colours of that name in Rich's
#: standard palette, so that bringing them down to 16 colours lands on the colour named
COLOURS_16: dict[str, str] = {
    "Red": "#ff5555",
    "Blue": "#5555ff",
    "Green": "#55ff55",
    "Yellow": "#ffff55",
    "Purple": "#ff55ff",
}
BLACK_ON_16 = "#aaaaaa"

#: the 16-colour name each seat must be drawn in
ANSI_NAME = {"Red": "red", "Blue": "blue", "Green": "green", "Yellow": "yellow",
             "Purple": "magenta", "Black": "black"}

#: Condottiere's seats, in seat order
SEATS = ("Red", "Blue", "Green", "Yellow", "Purple", "Black")
#: Court of the Medici's houses (Orsini, Colonna, Delle Rovere, Gonzaga), by seat colour
HOUSES = ("Red", "Blue", "Yellow", "Green")

#: the least CIE76 distance between two seats' colours, as each colour blindness sees them
MIN_DISTANCE = 15.0
#: the least contrast of a seat's colour against the background (WCAG AA for text)
MIN_CONTRAST = 4.5

_mode: Literal["full", "16"] = "full"


def use(color_system: str | None) -> None:
    """Draw in the colours for ``color_system`` (Rich's name: ``standard`` is 16 colours)."""
    global _mode
    _mode = "16" if color_system == "standard" else "full"


def seat_style(seat: str, mode: str | None = None) -> str:
    """The Rich style of a seat's name: ``bold #ff8787``, ``bold #000000 on #c6c6c6``."""
    sixteen = (mode or _mode) == "16"
    if seat == "Black":
        return f"bold #000000 on {BLACK_ON_16 if sixteen else BLACK_ON}"
    return f"bold {(COLOURS_16 if sixteen else COLOURS)[seat]}"


class SeatStyles(Sequence[str]):
    """The styles of ``seats`` (colour names of ``SEATS``), by seat index, in the colours
    ``use`` chose."""

    def __init__(self, seats: Sequence[str]) -> None:
        self.seats = tuple(seats)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(seat_style(s) for s in self.seats[i])
        return seat_style(self.seats[i])

    def __len__(self) -> int:
        return len(self.seats)

    def __iter__(self) -> Iterator[str]:
        return (seat_style(s) for s in self.seats)


def seat_colour(seat: str) -> str:
    """The colour a seat is told apart by: its letters', or the Black seat's chip."""
    return BLACK_ON if seat == "Black" else COLOURS[seat]


# -- the measures ----------------------------------------------------------------------------

RGB = tuple[int, int, int]


def rgb(hex_colour: str) -> RGB:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encode(c: float) -> int:
    c = min(max(c, 0.0), 1.0)
    return round(255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055))


def luminance(c: RGB) -> float:
    r, g, b = (_linear(x) for x in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def monochrome(c: RGB) -> RGB:
    """The grey Textual draws ``c`` in under ``NO_COLOR`` (its ``Color.monochrome``)."""
    g = round(c[0] * 0.2126 + c[1] * 0.7152 + c[2] * 0.0722)
    return (g, g, g)


#: Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB
CVD: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def simulate(c: RGB, kind: str) -> RGB:
    """``c`` as seen with the colour blindness ``kind`` (a key of ``CVD``)."""
    lin = [_linear(x) for x in c]
    m = CVD[kind]
    r, g, b = (_encode(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3))
    return (r, g, b)


def lab(c: RGB) -> tuple[float, float, float]:
    r, g, b = (_linear(x) for x in c)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def distance(a: RGB, b: RGB) -> float:
    """CIE76 colour difference (about 2.3 is the least a person notices)."""
    return math.dist(lab(a), lab(b))


def least_distance(kind: str | None, seats: Sequence[str] = SEATS) -> tuple[float, str, str]:
    """The closest two seats' colours as ``kind`` sees them (``None``: normal vision)."""
    def seen(s: str) -> RGB:
        c = rgb(seat_colour(s))
        return c if kind is None else simulate(c, kind)

    return min((distance(seen(a), seen(b)), a, b) for a, b in itertools.combinations(seats, 2))


def theme_backgrounds(theme: object) -> list[str]:
    """The background and surface colours of a Textual theme (``#rrggbb``), or ``[]`` for a
    theme that takes the terminal's own colours."""
    background = getattr(theme, "background", None)
    if not getattr(theme, "dark", False) or (background or "").startswith("ansi"):
        return []
    variables = theme.to_color_system().generate()  # type: ignore[attr-defined]
    return [variables[v][:7] for v in ("background", "surface")]


def theme_ok(theme: object) -> bool:
    """Whether every seat keeps ``MIN_CONTRAST`` on the theme's background and surface, in true
    colour and in 256 colours (light themes and the terminal's own colours are not offered)."""
    from rich.color import Color, ColorSystem

    backs = theme_backgrounds(theme)
    if not backs:
        return False
    for back in backs:
        bg = rgb(back)
        bg256 = _triplet(Color.from_rgb(*bg).downgrade(ColorSystem.EIGHT_BIT).get_truecolor())
        for seat in SEATS[:-1]:  # the Black seat's letters stand on its own chip
            fg = rgb(COLOURS[seat])
            fg256 = _triplet(Color.from_rgb(*fg).downgrade(ColorSystem.EIGHT_BIT).get_truecolor())
            if contrast(fg, bg) < MIN_CONTRAST or contrast(fg256, bg256) < MIN_CONTRAST:
                return False
    return True


def _triplet(t: Sequence[int]) -> RGB:
    return (int(t[0]), int(t[1]), int(t[2]))


def in_256(hex_colour: str) -> RGB:
    """``hex_colour`` as a 256-colour terminal shows it (Rich's nearest xterm colour)."""
    from rich.color import Color, ColorSystem

    return _triplet(Color.from_rgb(*rgb(hex_colour)).downgrade(ColorSystem.EIGHT_BIT).get_truecolor())


def ansi_name(hex_colour: str) -> str:
    """The name of the colour a 16-colour terminal shows ``hex_colour`` in (``red``)."""
    from rich.color import Color, ColorSystem

    n = Color.from_rgb(*rgb(hex_colour)).downgrade(ColorSystem.STANDARD).number or 0
    return ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")[n % 8]


_judged: dict[int, bool] = {}


def offered(theme: object) -> bool:
    """``theme_ok``, judged once for each theme (Textual looks themes up again and again)."""
    ok = _judged.get(id(theme))
    if ok is None:
        ok = _judged[id(theme)] = theme_ok(theme)
    return ok


def offered_themes(themes: Mapping[str, T]) -> dict[str, T]:
    """The themes of ``themes`` the seats' colours can be read on (``offered``)."""
    return {name: t for name, t in themes.items() if offered(t)}
