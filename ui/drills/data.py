"""Cached quizzes of the drills page, and the store that keeps a student's answers."""

from __future__ import annotations

import streamlit as st

from cubecore import drills
from store import Classroom


@st.cache_data(max_entries=64, show_spinner="Drawing the questions...")
def quiz(topic: str, seed: int, level: int, count: int) -> tuple[drills.Question, ...]:
    """The questions of one quiz (at most 50: :data:`cubecore.drills.MAX_QUESTIONS`)."""
    return drills.quiz(topic, seed, level, count)


@st.cache_resource(show_spinner=False)
def answers_store() -> Classroom:
    """The app's store (one per process): it keeps each student's drill answers."""
    return Classroom()
