"""A slow, independent edwards25519 in plain Python (affine coordinates), for checking
``net.deck.group`` against the curve's definition and for building points libsodium would refuse:
the eight points of small order and points outside the prime-order subgroup.

Curve: -x^2 + y^2 = 1 + d*x^2*y^2 over GF(p), p = 2^255 - 19, d = -121665/121666; a point is
encoded as y (little-endian) with the low bit of x in bit 255 (RFC 8032).
"""

from __future__ import annotations

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
IDENT = (0, 1)

Point = tuple[int, int]


def inv(x: int) -> int:
    return pow(x, P - 2, P)


def add(a: Point, b: Point) -> Point:
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * inv(1 + t) % P, (y1 * y2 + x1 * x2) * inv(1 - t) % P)


def neg(a: Point) -> Point:
    return (-a[0] % P, a[1])


def mul(k: int, a: Point) -> Point:
    out = IDENT
    while k:
        if k & 1:
            out = add(out, a)
        a = add(a, a)
        k >>= 1
    return out


def mul_fast(k: int, a: Point) -> Point:
    """``mul`` in extended coordinates (Hisil-Wong-Carter-Dawson's unified addition for
    ``a = -1``, complete on this curve), one inversion at the end: for checking longer sums."""
    x, y = a
    q = (x, y, 1, x * y % P)
    out = (0, 1, 1, 0)

    def plus(p1: tuple[int, int, int, int], p2: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        x1, y1, z1, t1 = p1
        x2, y2, z2, t2 = p2
        a_ = (y1 - x1) * (y2 - x2) % P
        b_ = (y1 + x1) * (y2 + x2) % P
        c_ = 2 * D * t1 * t2 % P
        d_ = 2 * z1 * z2 % P
        e, f, g, h = b_ - a_, d_ - c_, d_ + c_, b_ + a_
        return (e * f % P, g * h % P, f * g % P, e * h % P)

    while k:
        if k & 1:
            out = plus(out, q)
        q = plus(q, q)
        k >>= 1
    zi = inv(out[2])
    return (out[0] * zi % P, out[1] * zi % P)


def on_curve(a: Point) -> bool:
    x, y = a
    return (-x * x + y * y - 1 - D * x * x * y * y) % P == 0


def recover_x(y: int, sign: int) -> int | None:
    if y >= P:
        return None
    u = (y * y - 1) * inv(D * y * y + 1) % P
    x = pow(u, (P + 3) // 8, P)
    if (x * x - u) % P:
        x = x * SQRT_M1 % P
    if (x * x - u) % P:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return x


def decode(data: bytes) -> Point | None:
    n = int.from_bytes(data, "little")
    y, sign = n & ((1 << 255) - 1), n >> 255
    x = recover_x(y, sign)
    return None if x is None else (x, y)


def encode(a: Point) -> bytes:
    x, y = a
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


BASE = (recover_x(4 * inv(5) % P, 0), 4 * inv(5) % P)


def order_eight_point() -> Point:
    """A point of order 8: the torsion part ``L*Q`` of some curve point ``Q``."""
    y = 2
    while True:
        q = decode(y.to_bytes(32, "little"))
        if q is not None:
            t = mul(L, q)
            if mul(4, t) != IDENT:
                return t
        y += 1


def torsion() -> list[Point]:
    """The eight points of order dividing 8, identity first."""
    t = order_eight_point()
    return [mul(k, t) for k in range(8)]
