"""The home page's own text: the model names, the overview cards, the glossary.

Every card and glossary link lands on the section that holds its result: a link is
the target page's file plus its values, the section under the app-wide key ``sec`` by
its section id (the tab title is looked up when the link is drawn:
:func:`ui.pages.link_query`), the other values under their app-wide names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

#: The atlas's names of the four models of :data:`cubecore.atlas.MODELS`.
MODEL_TITLES = {
    "keeler_spencer": "Keeler-Spencer live cube",
    "zadeh_kobliska": "Zadeh-Kobliska DA/DB",
    "give_up": "Woolsey give-up g/g_c",
    "janowski": "Janowski cube life x",
}


@dataclass(frozen=True)
class Link:
    """A link to one view of another page: its file, a label and the query that opens it."""

    page: str
    label: str
    query: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Card:
    """One overview card: what a source assumes, answers, is for, and where it shows that."""

    title: str
    assumes: str
    answers: str
    use: str
    links: tuple[Link, ...]


@dataclass(frozen=True)
class Start:
    """One way into the app, from what a visitor brings: a heading in the visitor's words,
    what the page does with it, and the one link that opens it."""

    brings: str
    does: str
    link: Link


#: The home page's first screen: what a visitor brings, each one click from its page.
#: (A position opens the real races page, which decodes one, until the app has a page
#: for any position.)
START = (
    Start(
        "A position",
        "Paste a position ID or set up a race: the checkers on a board, the pip counts, "
        "the race formulas' verdicts and the exact bear-off values.",
        Link("pages/real_race.py", "Decode a position", {"sec": "position"}),
    ),
    Start(
        "Engine numbers",
        "Winning chances and gammons from your bot or your own estimate: double or not, "
        "take or pass, and by how much.",
        Link("pages/cube.py", "Open the cube calculator", {"sec": "decision"}),
    ),
    Start(
        "A match score",
        "How far each side is from winning the match: match equity, take points at "
        "this score, Crawford and Holland.",
        Link("pages/match.py", "Take points at a score", {"sec": "takes"}),
    ),
    Start(
        "Learn the theory",
        "Why 80% cashes and 20% takes, from the continuous game up; the models side by "
        "side are in the Models tab above.",
        Link("pages/keeler_spencer.py", "Start with the continuous game", {"sec": "game"}),
    ),
    Start(
        "Teach a class",
        "Open a room, put a question on the projector, and watch your students' answers "
        "arrive from their phones.",
        Link("pages/classroom.py", "Open a classroom", {"sec": "present"}),
    ),
)

#: One card per source; its links open the sections that hold its headline results.
OVERVIEW = (
    Card(
        "Keeler & Spencer (1969): the continuous game",
        "The winning chance moves continuously (no jumps); no gammons.",
        "Double and cash at 80%, take down to 20%; raising points when the raises "
        "are limited or not alternating; raise potentials.",
        "The ideal: every other model measures how far a real game is from it.",
        (
            Link(
                "pages/keeler_spencer.py",
                "The 80% point, checked by simulation",
                {"sec": "game", "d": "0.8"},
            ),
        ),
    ),
    Card(
        "Zadeh & Kobliska (1977): the race",
        "A pure race: counts fall by the dice totals; no gammons.",
        "Winning chances, effective doubling points DA/DB, and (here, exactly) the "
        "optimal cube strategy at every pair of counts.",
        "Races and any position whose jumps you can describe by DA and DB.",
        (
            Link(
                "pages/race.py",
                "Effective doubling points DA/DB",
                {"sec": "points"},
            ),
            Link(
                "pages/race.py",
                "Exact cube actions at 40 v 43",
                {"sec": "exact", "pips": "40", "opips": "43"},
            ),
        ),
    ),
    Card(
        "Woolsey: give-up points",
        "The cube owner's access is worth 'winning' at a give-up point g (.86), "
        "g_c (.835) with the cube centred; no gammons.",
        "Modified equities, doubling at .391 and redoubling at .420 in cubeless "
        "equity, and the cost of doubling over next-roll equities.",
        "Estimating a real double from the equities after the next exchange.",
        (Link("pages/giveup.py", "The essay's table", {"sec": "table"}),),
    ),
    Card(
        "Janowski: the cube life index",
        "Equity is a mix x of the live and the dead cube; gammons via W and L.",
        "Take, cash, double, redouble, beaver, raccoon and too-good points for any "
        "cube life and gammon rates.",
        "Money play with gammons: the model engines use.",
        (
            Link(
                "pages/janowski.py",
                "Typical x = 0.68 with gammons",
                {"sec": "decision", "x": "0.68", "W": "1.25", "L": "1.2", "cube": "all"},
            ),
        ),
    ),
    Card(
        "The rules of the cube",
        "Beaver, raccoon, Murphy, Jacoby, Crawford, Holland as commonly played.",
        "What is legal when, what each rule does to the stakes and to the theory.",
        "Checking a ruling; seeing why Jacoby pushes a favourite to double.",
        (
            Link(
                "pages/rules.py",
                "Beaver and raccoon, step by step",
                {"sec": "walkthrough", "step": "4"},
            ),
        ),
    ),
    Card(
        "Match play",
        "A stated match equity model (continuous game, gammon rate, cube efficiency).",
        "Match equity, take points at every score and cube level, Crawford, "
        "post-Crawford and Holland in numbers.",
        "'What is my take point at this score?'",
        (
            Link(
                "pages/match.py",
                "Take points at 4-away/2-away",
                {"sec": "takes", "away": "4", "oaway": "2"},
            ),
        ),
    ),
)


def _see(target: str) -> Link:
    """A glossary link, ``"page?sec=section&key=value"``: the page's file and its query."""
    page, _, query = target.partition("?")
    return Link(f"pages/{page}.py", "see it", dict(parse_qsl(query)))


#: The cube vocabulary: term, meaning, and the view where it is computed.
GLOSSARY: tuple[tuple[str, str, Link], ...] = (
    (
        "Take point",
        "The lowest winning chance at which accepting a double beats passing.",
        _see("janowski?sec=decision"),
    ),
    (
        "Cash point",
        "The doubler's winning chance at which the opponent starts to pass.",
        _see("janowski?sec=decision"),
    ),
    (
        "Market, market loser",
        "A sequence after which the doubler would no longer be taken: "
        "doubling now rather than after it 'keeps the market'.",
        _see("giveup?sec=cost"),
    ),
    (
        "Too good",
        "So strong that playing on for a gammon beats cashing.",
        _see("janowski?sec=decision"),
    ),
    (
        "Beaver",
        "The taker immediately redoubles, keeping the cube (money play).",
        _see("rules?sec=walkthrough&step=4"),
    ),
    (
        "Raccoon",
        "After a beaver, the original doubler doubles again; the taker keeps the cube.",
        _see("rules?sec=walkthrough&step=4"),
    ),
    (
        "Recube vig",
        "The value to the taker of owning the cube: why he can take below 25%.",
        _see("keeler_spencer?sec=game"),
    ),
    (
        "Cube life (x)",
        "Janowski's index: 0 is a dead cube, 1 a perfectly live one.",
        _see("janowski?sec=life"),
    ),
    (
        "Effective doubling point",
        "Zadeh-Kobliska's DA/DB: where a discontinuous game effectively ends for each side.",
        _see("race?sec=points"),
    ),
    (
        "Give-up point",
        "Woolsey's g: the winning chance at which the cube owner is deemed to win.",
        _see("giveup?sec=transform"),
    ),
    (
        "Crawford",
        "No doubling in the game after a player first reaches 1-away.",
        _see("match?sec=rules"),
    ),
    (
        "Holland",
        "After the Crawford game, no double until each side has rolled twice.",
        _see("match?sec=rules"),
    ),
    (
        "Jacoby",
        "Money play: gammons count only once the cube has been turned.",
        _see("janowski?sec=decision&jacoby=true"),
    ),
    (
        "Murphy",
        "Automatic doubles on opening ties, possibly capped.",
        _see("rules?sec=walkthrough&walk=murphy_cap&step=3"),
    ),
)

#: What the app computes exactly, what is a model by design, what is simulated.
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
