"""Home page: the five sections (where to start, the model cards, the atlas, glossary, about
and sources).

Each function renders one section from the :class:`~ui.skeleton.View`; the skeleton
runs only the open one.
"""

from __future__ import annotations

import streamlit as st

from cubecore import atlas
from cubecore.janowski import CUBE_POSITIONS
from cubecore.references import REFERENCES, source
from ui import widgets
from ui.home import data as cached
from ui.home.content import EXACT_VS_APPROXIMATE, GLOSSARY, OVERVIEW, START
from ui.pages import link_query
from ui.skeleton import View


def render_start(v: View) -> None:
    """What a visitor brings, one tile each, with the one link that opens its page."""
    per_row = 3 if v.present else len(START)
    columns = st.columns(per_row)
    for index, start in enumerate(START):
        with columns[index % per_row].container(border=True):
            st.markdown(f"#### {start.brings}")
            st.page_link(
                start.link.page,
                label=start.link.label,
                icon=":material/arrow_forward:",
                query_params=link_query(start.link.page, start.link.query),
            )
            st.caption(start.does)


def render_overview(v: View) -> None:
    """One bordered card per source, with the links to its headline results."""
    per_row = 2 if v.present else 3
    columns = st.columns(per_row)
    for index, card in enumerate(OVERVIEW):
        with columns[index % per_row].container(border=True):
            st.markdown(f"**{card.title}**")
            st.caption(f"Assumes: {card.assumes}")
            st.write(card.answers)
            st.caption(f"Use it for: {card.use}")
            for link in card.links:
                st.page_link(
                    link.page,
                    label=link.label,
                    icon=":material/arrow_forward:",
                    query_params=link_query(link.page, link.query),
                )


def _align(source_name: str, value: float, center_give_up: float | None = None) -> None:
    settings = atlas.equivalent_settings(source_name, value, center_give_up)
    st.session_state.update(
        x=round(settings.x, 4),
        g=round(settings.give_up, 4),
        gc=round(settings.center_give_up, 4),
        da=round(settings.da, 4),
        db=round(settings.db, 4),
    )


#: Which parameter leads an alignment: (button label, source, control key, how the rest follow).
_ALIGNMENTS = (
    ("Align all to g", "give_up", "g", "DA = g, DB = 1 - g, x = 4(1/g - 1), g_c with the same x"),
    ("Align all to x", "x", "x", "g = 1/(1 + x/4), DA = g, DB = 1 - g, g_c with the same x"),
    ("Align all to DA", "da", "da", "g = DA, DB = 1 - DA, x = 4(1/DA - 1)"),
)


def _alignment_buttons(v: View) -> None:
    """Buttons that move every model to the settings equivalent to one of them."""
    for column, (label, source_name, key, rule) in zip(
        st.columns(len(_ALIGNMENTS)), _ALIGNMENTS, strict=True
    ):
        column.button(
            label, on_click=_align, args=(source_name, v.number(key)), help=rule, width="stretch"
        )


def render_atlas(v: View) -> None:
    """The atlas: the four models on one chart, their mappings and points side by side."""
    _alignment_buttons(v)
    x, da, db, g, gc = (v.number(key) for key in ("x", "da", "db", "g", "gc"))
    pips = v.whole("pips")
    view = cached.atlas_view(x=x, da=da, db=db, g=g, gc=gc, cube=v.choice("cube", CUBE_POSITIONS))
    chart_column, map_column = widgets.chart_columns(v.present)
    with chart_column:
        widgets.chart(view.figure, "atlas")
    if not v.present:
        with map_column:
            widgets.formula(
                r"D_A = g,\qquad D_B = 1 - g",
                f"give-up g as effective doubling points ({source('W-DT')}; "
                f"{source('ZK77', 'eqs. (1)-(3)')})",
            )
            widgets.formula(
                r"x = 4\left(\frac{1}{g} - 1\right),\qquad "
                r"x_c = \frac{3}{2}\left(\frac{1}{2g_c - 1} - 1\right)",
                "give-up points as Janowski cube life, linear region, W = L = 1",
            )
    widgets.headline(cached.headline_view(da=da, db=db, g=g, gc=gc, pips=pips))
    st.caption(
        "The race's x: exact race model, even race, cube centred, (E - E_dead)/(E_live - "
        "E_dead). Where the mapping breaks: one give-up pair (g, g_c) implies two cube lives "
        "unless g_c is chosen to match; DA/DB imply one x only when DB = 1 - DA; the "
        "race's own x changes with the pip count and the cube position."
    )
    st.subheader("Decision points, side by side")
    widgets.table_with_download(view.points, "atlas_points.csv")


def render_glossary(v: View) -> None:
    """The cube vocabulary, each term with a link to the section where it is computed."""
    for term, meaning, link in GLOSSARY:
        left, right = st.columns([3, 1])
        left.markdown(f"**{term}**: {meaning}")
        right.page_link(
            link.page,
            label=link.label,
            icon=":material/arrow_forward:",
            query_params=link_query(link.page, link.query),
        )


def render_about(v: View) -> None:
    """Every source with its full citation, and what is exact versus approximate."""
    st.subheader("Sources")
    st.markdown(
        "\n".join(
            f"- {reference.text()}" + (f" *{reference.note}*" if reference.note else "")
            for reference in REFERENCES.values()
        )
    )
    st.subheader("Exact, approximate, simulated")
    for paragraph in EXACT_VS_APPROXIMATE:
        st.markdown(paragraph)
