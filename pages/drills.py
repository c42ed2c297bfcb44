"""Drills: seeded quizzes graded against the exact values."""

from ui.drills import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
