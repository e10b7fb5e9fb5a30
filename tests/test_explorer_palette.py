"""The explorer's value colours stay apart in grey-scale print: their CIE lightness L*
differs by at least 15 between any two, and the style sheet's comment says the true values."""

from __future__ import annotations

import itertools
import re
from importlib import resources

#: Smallest lightness difference (CIE L*, 0 black .. 100 white) kept between two values.
MIN_LIGHTNESS_STEP = 15


def lightness(hex_colour: str) -> float:
    """CIE L* of an sRGB colour ``#rrggbb`` (the grey a printer or grey-scale screen shows)."""
    channels = [int(hex_colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 116 * y ** (1 / 3) - 16 if y > (6 / 29) ** 3 else y * (29 / 3) ** 3


def test_lightness_of_known_colours() -> None:
    assert round(lightness("#000000")) == 0 and round(lightness("#ffffff")) == 100
    assert round(lightness("#777777")) == 50  # sRGB mid grey, a textbook value


def test_value_colours_are_distinct_in_grey_scale() -> None:
    css = (resources.files("cgtapp.explorer") / "static" / "explorer.css").read_text()
    colours = {
        name: re.search(rf"--{name}: (#[0-9a-fA-F]{{6}});", css).group(1)  # type: ignore[union-attr]
        for name in ("win", "draw", "loss")
    }
    levels = sorted(lightness(c) for c in colours.values())
    assert all(b - a >= MIN_LIGHTNESS_STEP for a, b in itertools.pairwise(levels)), levels
    stated = re.search(r"lightness L\* (\d+), (\d+) and (\d+)", css)
    assert stated is not None
    assert [int(x) for x in stated.groups()] == [round(v) for v in levels]
