"""The rating chart of /stats: legible on a phone, small, drawn for any history length."""

from __future__ import annotations

import io

from PIL import Image

from renderers import rating_chart
from renderers.text import PHONE_MIN_PX, PHONE_WIDTH

HISTORIES = [
    [(25.0, 8.33)],
    [(25.0, 8.33), (29.2, 7.8)],
    [(25.0 + (i % 7) - i / 10, max(1.0, 8.33 - i / 8)) for i in range(120)],
    [(25.0, 8.33), (-12.0, 2.0), (60.0, 1.0)],
]


def test_every_letter_and_number_is_8_px_tall_on_a_phone() -> None:
    for points in HISTORIES:
        canvas = rating_chart.draw(points, "A very long player name · Diced Tomatoes rating")
        assert canvas.smallest_shown_glyph(PHONE_WIDTH) >= PHONE_MIN_PX


def test_the_chart_is_a_small_image() -> None:
    for points in HISTORIES:
        data = rating_chart.render(points, "Ann · Troyes rating")
        image = Image.open(io.BytesIO(data))
        assert image.format == "WEBP" and image.size == (rating_chart.WIDTH, rating_chart.HEIGHT)
        assert len(data) < 100_000


def test_the_rating_line_follows_the_points() -> None:
    rising = rating_chart.draw([(10.0, 1.0), (40.0, 1.0)], "t").image
    falling = rating_chart.draw([(40.0, 1.0), (10.0, 1.0)], "t").image
    assert rising.tobytes() != falling.tobytes()
