"""Content of the home page: overview cards, atlas alignment, glossary and about."""

from __future__ import annotations

from typing import Any

import streamlit as st

from cubecore import atlas, giveup
from ui import widgets
from ui.cached import home as cached
from ui.figures import home as figures
from ui.settings import home as settings

#: One card per source: what it assumes, what it answers, when to use it, and a
#: link to its page with the preset that shows its headline result.
OVERVIEW: tuple[dict[str, Any], ...] = (
    {
        "page": "pages/keeler_spencer.py",
        "title": "Keeler & Spencer (1969): the continuous game",
        "assumes": "The winning chance moves continuously (no jumps); no gammons.",
        "answers": "Double and cash at 80%, take down to 20%; raising points when the raises "
        "are limited or not alternating; raise potentials.",
        "use": "The ideal: every other model measures how far a real game is from it.",
        "link": "The 80% point, checked by simulation",
        "query": {"sec": "1 · The continuous game", "d": "0.8"},
    },
    {
        "page": "pages/race.py",
        "title": "Zadeh & Kobliska (1977): the race",
        "assumes": "A pure race: counts fall by the dice totals; no gammons.",
        "answers": "Winning chances, effective doubling points DA/DB, and (here, exactly) the "
        "optimal cube strategy at every pair of counts.",
        "use": "Races and any position whose jumps you can describe by DA and DB.",
        "link": "Exact cube actions at 40 v 43",
        "query": {"rsec": "exact-strategy", "rx": "40", "ry": "43"},
    },
    {
        "page": "pages/giveup.py",
        "title": "Woolsey: give-up points",
        "assumes": "The cube owner's access is worth 'winning' at a give-up point g (.86), "
        "g_c (.835) with the cube centred; no gammons.",
        "answers": "Modified equities, doubling at .391 and redoubling at .420 in cubeless "
        "equity, and the cost of doubling over next-roll equities.",
        "use": "Estimating a real double from the equities after the next exchange.",
        "link": "The essay's table",
        "query": {"wsec": "2 · The essay's table"},
    },
    {
        "page": "pages/janowski.py",
        "title": "Janowski: the cube life index",
        "assumes": "Equity is a mix x of the live and the dead cube; gammons via W and L.",
        "answers": "Take, cash, double, redouble, beaver, raccoon and too-good points for any "
        "cube life and gammon rates.",
        "use": "Money play with gammons: the model engines use.",
        "link": "Typical x = 0.68 with gammons",
        "query": {"x": "0.68", "W": "1.25", "L": "1.2", "cube": "all"},
    },
    {
        "page": "pages/rules.py",
        "title": "The rules of the cube",
        "assumes": "Beaver, raccoon, Murphy, Jacoby, Crawford, Holland as commonly played.",
        "answers": "What is legal when, what each rule does to the stakes and to the theory.",
        "use": "Checking a ruling; seeing why Jacoby pushes a favourite to double.",
        "link": "Beaver and raccoon, step by step",
        "query": {"step": "4"},
    },
    {
        "page": "pages/match.py",
        "title": "Match play",
        "assumes": "A stated match equity model (continuous game, gammon rate, cube efficiency).",
        "answers": "Match equity, take points at every score and cube level, Crawford, "
        "post-Crawford and Holland in numbers.",
        "use": "'What is my take point at this score?'",
        "link": "Take points at 4-away/2-away",
        "query": {"part": "takes", "away": "4", "opp": "2"},
    },
)

GLOSSARY = (
    (
        "Take point",
        "The lowest winning chance at which accepting a double beats passing.",
        "pages/janowski.py",
    ),
    (
        "Cash point",
        "The doubler's winning chance at which the opponent starts to pass.",
        "pages/janowski.py",
    ),
    (
        "Market, market loser",
        "A sequence after which the doubler would no longer be taken: "
        "doubling now rather than after it 'keeps the market'.",
        "pages/giveup.py",
    ),
    ("Too good", "So strong that playing on for a gammon beats cashing.", "pages/janowski.py"),
    ("Beaver", "The taker immediately redoubles, keeping the cube (money play).", "pages/rules.py"),
    (
        "Raccoon",
        "After a beaver, the original doubler doubles again; the taker keeps the cube.",
        "pages/rules.py",
    ),
    (
        "Recube vig",
        "The value to the taker of owning the cube: why he can take below 25%.",
        "pages/keeler_spencer.py",
    ),
    (
        "Cube life (x)",
        "Janowski's index: 0 is a dead cube, 1 a perfectly live one.",
        "pages/janowski.py",
    ),
    (
        "Effective doubling point",
        "Zadeh-Kobliska's DA/DB: where a discontinuous game effectively ends for each side.",
        "pages/race.py",
    ),
    (
        "Give-up point",
        "Woolsey's g: the winning chance at which the cube owner is deemed to win.",
        "pages/giveup.py",
    ),
    ("Crawford", "No doubling in the game after a player first reaches 1-away.", "pages/match.py"),
    (
        "Holland",
        "After the Crawford game, no double until each side has rolled twice.",
        "pages/match.py",
    ),
    (
        "Jacoby",
        "Money play: gammons count only once the cube has been turned.",
        "pages/janowski.py",
    ),
    ("Murphy", "Automatic doubles on opening ties, possibly capped.", "pages/rules.py"),
)

SOURCES = (
    "E. Keeler and J. Spencer, *Proper Raising Points in a Generalization of Backgammon*, "
    "The RAND Corporation, P-4078, May 1969.",
    "N. Zadeh and G. Kobliska, *On Optimal Doubling in Backgammon*, Management Science "
    "23(8):853-858, April 1977.",
    "K. Woolsey, *Doubling Theory* (essay; give-up points .86 and .835).",
    "*Janowski model revisited*, blog post, 28 March 2012; after R. Janowski, *Take-Points "
    "in Money Games* (1993).",
    "Rules of the doubling cube: beaver, raccoon, Murphy, Jacoby, Crawford, Holland "
    "(shared/seeds/doubling_cube_rules.txt).",
)

EXACT_VS_APPROXIMATE = (
    "**Exact** (closed forms, exact recursions, exact rationals in tests): Keeler-Spencer "
    "raising points and raise potentials; the race model's winning chances and its optimal "
    "cube strategy (dynamic programming over all counts to 375); the give-up transforms and "
    "their doubling points; Janowski's equities and decision points; the match equity "
    "recursion of the stated model.",
    "**Approximate by design of the source**: Janowski's x, the give-up points and DA/DB are "
    "models of a real game; the match table is generated from a stated model, not measured "
    "from play; the race model ignores wastage and gammons.",
    "**Monte Carlo** (seeded, with confidence intervals): the continuous-game simulations; "
    "each is checked against its exact value.",
)


def overview_cards(present: bool = False) -> None:
    """One bordered card per source, with the link to its headline."""
    per_row = 2 if present else 3
    columns = st.columns(per_row)
    for index, card in enumerate(OVERVIEW):
        with columns[index % per_row].container(border=True):
            st.markdown(f"**{card['title']}**")
            st.caption(f"Assumes: {card['assumes']}")
            st.write(card["answers"])
            st.caption(f"Use it for: {card['use']}")
            st.page_link(
                card["page"],
                label=card["link"],
                icon=":material/arrow_forward:",
                query_params=card["query"],
            )


def _align(source: str, value: float, center_give_up: float | None = None) -> None:
    settings = atlas.equivalent_settings(source, value, center_give_up)
    st.session_state.update(
        ax=round(settings.x, 4),
        ag=round(settings.give_up, 4),
        agc=round(settings.center_give_up, 4),
        ada=round(settings.da, 4),
        adb=round(settings.db, 4),
    )


#: Which parameter leads an alignment: (button label, source, control key, how the rest follow).
_ALIGNMENTS = (
    ("Align all to g", "give_up", "ag", "DA = g, DB = 1 - g, x = 4(1/g - 1), g_c with the same x"),
    ("Align all to x", "x", "ax", "g = 1/(1 + x/4), DA = g, DB = 1 - g, g_c with the same x"),
    ("Align all to DA", "da", "ada", "g = DA, DB = 1 - DA, x = 4(1/DA - 1)"),
)


def alignment_buttons(values: dict) -> None:
    """Buttons that move every model to the settings equivalent to one of them."""
    for column, (label, source, key, rule) in zip(
        st.columns(len(_ALIGNMENTS)), _ALIGNMENTS, strict=True
    ):
        column.button(
            label, on_click=_align, args=(source, values[key]), help=rule, width="stretch"
        )


def glossary() -> None:
    """The cube vocabulary, each term with a link to where it appears."""
    for term, meaning, page in GLOSSARY:
        left, right = st.columns([3, 1])
        left.markdown(f"**{term}**: {meaning}")
        right.page_link(page, label="see it", icon=":material/arrow_forward:")


def about() -> None:
    """Sources with full citations, and what is exact versus approximate."""
    st.markdown("\n".join(f"- {source}" for source in SOURCES))
    for paragraph in EXACT_VS_APPROXIMATE:
        st.markdown(paragraph)


def atlas_section(v: dict, present: bool) -> None:
    """The atlas: the four models on one chart, their mappings and points side by side."""
    widgets.preset_buttons(settings.PRESETS)
    alignment_buttons(v)
    curves, points = cached.atlas_tables(v["ax"], v["ada"], v["adb"], v["ag"], v["agc"])
    chart_column, map_column = st.columns([3, 2] if not present else [1, 0.001])
    with chart_column:
        widgets.chart(figures.atlas_figure(curves, v["acube"], present=present), "atlas")
    if not present:
        with map_column:
            widgets.formula(
                r"D_A = g,\qquad D_B = 1 - g",
                "give-up g as effective doubling points ([KW] = [ZK77] eqs. 1-3)",
            )
            widgets.formula(
                r"x = 4\left(\frac{1}{g} - 1\right),\qquad "
                r"x_c = \frac{3}{2}\left(\frac{1}{2g_c - 1} - 1\right)",
                "give-up points as Janowski cube life, linear region, W = L = 1",
            )
    x_owned, x_opponent = atlas.cube_life_from_effective_points(v["ada"], v["adb"])
    race_x = cached.race_cube_life().loc[v["apips"]]
    a, b, c, d = st.columns(4)
    a.metric("x from g (cube turned)", f"{giveup.cube_life_from_give_up(v['ag'], 'owned'):.4f}")
    b.metric("x from g_c (centred)", f"{giveup.cube_life_from_give_up(v['agc'], 'center'):.4f}")
    c.metric("x from DA / from DB", f"{x_owned:.3f} / {x_opponent:.3f}")
    d.metric(
        f"x implied by the race at {v['apips']} pips",
        f"{race_x['center']:.4f}",
        help="Exact race model, even race, cube centred: (E - E_dead)/(E_live - E_dead)",
    )
    st.caption(
        "Where the mapping breaks: one give-up pair (g, g_c) implies two cube lives "
        "unless g_c is chosen to match; DA/DB imply one x only when DB = 1 - DA; the "
        "race's own x changes with the pip count and the cube position."
    )
    st.subheader("Decision points, side by side")
    widgets.table_with_download(points.round(4), "atlas_points.csv")
