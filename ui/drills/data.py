"""Cached quizzes of the drills page, and the stores that keep a student's answers."""

from __future__ import annotations

import streamlit as st

from cubecore import drills, position_drills
from store import Classroom
from store.position_answers import PositionAnswers


@st.cache_data(max_entries=64, show_spinner="Drawing the questions...")
def quiz(topic: str, seed: int, level: int, count: int) -> tuple[drills.Question, ...]:
    """The questions of one quiz (at most 50: :data:`cubecore.drills.MAX_QUESTIONS`)."""
    return drills.quiz(topic, seed, level, count)


@st.cache_data(max_entries=64, show_spinner="Drawing the positions...")
def position_quiz(
    topic: str, seed: int, level: int, count: int, position_key: str
) -> tuple[position_drills.PositionQuestion, ...]:
    """The questions of one position quiz (``position_key`` empty: the whole library)."""
    return position_drills.position_quiz(topic, seed, level, count, position_key or None)


@st.cache_resource(show_spinner=False)
def answers_store() -> Classroom:
    """The app's store (one per process): it keeps each student's drill answers."""
    return Classroom()


@st.cache_resource(show_spinner=False)
def position_answers() -> PositionAnswers:
    """The app's store of answers to the library's positions (one per process)."""
    return PositionAnswers()
