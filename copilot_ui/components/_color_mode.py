"""Reflex's color mode driven by a state var, so that a tool changing the var changes the page's theme."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import VarData
from reflex_base.style import _color_mode_var


class ColorModeSync(rx.Fragment):
    """Renders nothing; sets the color mode (`<html class="dark">`) whenever `mode` changes."""

    mode: rx.Var[str]  # the page's color mode to set: "light", "dark" or "system" (empty: left as it is)

    def add_imports(self) -> dict[str, Any]:
        return {"react": [rx.ImportVar(tag="useEffect")]}

    def _exclude_props(self) -> list[str]:
        return [*super()._exclude_props(), "mode"]

    def add_hooks(self) -> list[str | rx.Var]:
        set_color_mode = _color_mode_var("setColorMode")
        mode = self.mode
        return [
            rx.Var(
                f"useEffect(() => {{ if ({mode}) {set_color_mode}({mode}); }}, [{mode}])",
                _var_data=VarData.merge(mode._get_all_var_data(), set_color_mode._get_all_var_data()),
            )
        ]


def color_mode_from(mode: rx.Var[str]) -> rx.Component:
    """Keep the page's color mode ("light", "dark" or "system") equal to this var."""
    return ColorModeSync.create(mode=mode)
