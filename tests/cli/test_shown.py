"""What the helps show comes from small modules that load nothing heavy (`engine.about`,
`rendering.about`, the catalogues' folders): each says the same as the module that decides
it, so that a help never tells a user something the program no longer does."""

from __future__ import annotations

import pytest

from twixt.cli.arguments import languages
from twixt.engine import about as engine_about
from twixt.engine.analysis import BUDGETS, DEEP
from twixt.engine.api import fixed_nodes
from twixt.language import LOCALES
from twixt.rendering import RenderOptions
from twixt.rendering import about as rendering_about
from twixt.rendering.themes import ThemeName
from twixt.rules import Colour


def test_the_languages_are_the_ones_with_catalogues() -> None:
    found = languages()
    assert found[0] == LOCALES[0] == "en"
    assert sorted(found) == sorted(LOCALES) and len(set(found)) == len(found)


@pytest.mark.parametrize("core", sorted(BUDGETS))
def test_the_analysis_budget_shown_is_the_one_analysed_with(core: str) -> None:
    chosen = BUDGETS[core]
    assert engine_about.ANALYSIS_BUDGETS[core] == (
        chosen.level, chosen.by_board, DEEP, fixed_nodes(chosen.deep_level))


def test_every_core_has_a_budget_shown() -> None:
    assert set(engine_about.ANALYSIS_BUDGETS) == set(BUDGETS) == {"python", "compiled"}


def test_the_themes_and_sides_shown_are_the_ones_drawn() -> None:
    assert tuple(theme.value for theme in ThemeName) == rendering_about.THEMES
    assert tuple(colour.value for colour in Colour) == rendering_about.SIDES



def test_the_defaults_shown_are_the_pictures_defaults() -> None:
    drawn = RenderOptions()
    assert (rendering_about.THEMES[0], rendering_about.SIDES[0]) == (drawn.theme.value,
                                                                   drawn.side.value)
    assert drawn.width == rendering_about.DEFAULT_WIDTH
