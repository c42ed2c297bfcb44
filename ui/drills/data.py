"""Cached quizzes of the drills page."""

from __future__ import annotations

import streamlit as st

from cubecore import drills


@st.cache_data(max_entries=64, show_spinner="Drawing the questions...")
def quiz(topic: str, seed: int, level: int, count: int) -> tuple[drills.Question, ...]:
    """The questions of one quiz (at most 50: :data:`cubecore.drills.MAX_QUESTIONS`)."""
    return drills.quiz(topic, seed, level, count)
