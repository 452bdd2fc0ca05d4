"""``cassino.view``: a spectator's view holds the public fields alone, and ``public_position`` turns a
view back into a position that holds nothing the view does not.

Checked along seeded random play of every preset (options and seatings drawn per hand): the
spectator's view is every seat's view less the hand and the legal moves; the public position of
the seat to move has that seat's hand, empty other hands and stock, the public table, piles and
scores, and exactly the seat's legal moves.
"""

from __future__ import annotations

import dataclasses

import pytest

from cassino.view import SPECTATOR, public_position, spectator_view, view_of
from crosscheck_support import PRESET_NAMES, random_play
from positions import scripted_position

PUBLIC = ("rules", "dealer", "to_move", "hand_sizes", "loose", "builds", "captured", "stock_size", "sweeps")
"""The fields of a view that every seat and a spectator share (with the scores and the history)."""


def test_a_spectator_sees_every_public_field_and_no_hand() -> None:
    for n, preset in enumerate(PRESET_NAMES):
        for count, (_setup, state) in enumerate(random_play(77 + n, preset)):
            if count == 100:
                break
            watching = spectator_view(state)
            assert watching.seat == SPECTATOR and watching.hand == 0 and watching.legal == ()
            for seat in range(state.players):
                seen = view_of(state, seat)
                assert dataclasses.replace(seen, seat=SPECTATOR, hand=0, legal=()) == watching
            assert public_position(watching).hands == (0,) * state.players


def test_the_public_position_of_a_view() -> None:
    for n, preset in enumerate(PRESET_NAMES):
        for count, (_setup, state) in enumerate(random_play(91 + n, preset)):
            if count == 100:
                break
            seat = state.to_move
            view = view_of(state, seat)
            position = public_position(view)
            assert position.hands == tuple(h if s == seat else 0 for s, h in enumerate(state.hands))
            assert position.remaining_stock == ()
            assert (position.loose, position.builds, position.captured) == (state.loose, state.builds, state.captured)
            assert (position.sweeps, position.scores, position.last_capturer) == (
                state.sweeps,
                state.scores,
                state.last_capturer,
            )
            assert (position.dealer, position.to_move, position.rules) == (state.dealer, seat, state.rules)
            assert sorted(position.legal_codes()) == sorted(view.legal)


def test_view_of_refuses_a_seat_out_of_range() -> None:
    """-1 read as an index would be the last seat's hand: a spectator is ``spectator_view``'s."""
    state = scripted_position(["5c"], [["2d"], ["9h"]])
    for seat in (SPECTATOR, 2):
        with pytest.raises(ValueError, match="out of range"):
            view_of(state, seat)
