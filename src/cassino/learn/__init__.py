"""The teaching library: lessons, a coach and a game review, for the browser and the terminal.

A library layer between the players and the apps: it reads a seat's ``View`` only, and weighs
moves with the search player's machinery. Every message is structured (``Message``: a code and its
parameters) and worded in English once, in ``LEARN_TEXTS``; see docs/learn.md.
"""

from __future__ import annotations

from .coach import (
    CATEGORIES,
    MARGIN,
    Assessment,
    Coach,
    CoachNote,
    category_name,
    coach_note,
)
from .lessons import (
    TUTORIAL_OPPONENT,
    TUTORIAL_RULES,
    Lesson,
    LessonNote,
    all_lessons,
    count_lesson,
    due_lessons,
    lesson,
    tutorial_opponent,
)
from .messages import LEARN_TEXTS, Message, Word
from .review import Advice, CategoryStat, ItemPoints, Review, review

__all__ = [
    "CATEGORIES",
    "LEARN_TEXTS",
    "MARGIN",
    "TUTORIAL_OPPONENT",
    "TUTORIAL_RULES",
    "Advice",
    "Assessment",
    "CategoryStat",
    "Coach",
    "CoachNote",
    "ItemPoints",
    "Lesson",
    "LessonNote",
    "Message",
    "Review",
    "Word",
    "all_lessons",
    "category_name",
    "coach_note",
    "count_lesson",
    "due_lessons",
    "lesson",
    "review",
    "tutorial_opponent",
]
