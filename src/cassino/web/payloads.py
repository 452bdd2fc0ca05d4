"""The JSON each client is sent, built from views alone: a seat sees its hand, nobody else's.

A seat's payload holds its own hand and legal moves (``view_of``), and on its turn the reasons for
what it cannot play (``explain.why_not`` of that view); a spectator's, built from
``spectator_view``, holds none of them. Everything else
(the table, the captured piles, hand sizes, the stock's size, this hand's moves, scores, finished
hands' breakdowns and the deck commitments) is public. Decks and salts are never here: they are
fetched from the reveal endpoint once their hand is over.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..cards import card_name, cards_of
from ..explain import why_not
from ..moves import KIND_NAMES, code_card, code_kind, code_table, code_value
from ..moves import format_code as _format_code
from ..scoring import CountItem, expected_checksum
from ..table import HUMAN, Frame
from ..view import View, build_is_single, spectator_view, view_of
from .leave import claims, forfeit_json, move_deadline
from .model import LiveGame

format_code = lru_cache(maxsize=1 << 16)(_format_code)
"""Move lines, cached: a payload repeats the hand's moves and legal moves at every move."""


@lru_cache(maxsize=1 << 14)
def _names(mask: int) -> tuple[str, ...]:
    return tuple(card_name(c) for c in cards_of(mask))


def legal_move(code: int) -> dict[str, Any]:
    """A legal move as its canonical line with the parts a click selects: card, kind, value, targets."""
    return {
        "move": format_code(code),
        "kind": KIND_NAMES[code_kind(code)],
        "card": card_name(code_card(code)),
        "value": code_value(code),
        "table": _names(code_table(code)),
    }


def _count_item(item: CountItem) -> dict[str, Any]:
    """One item of the count as the page turns it up: the card, the sweeper's seat and what each
    side took only where the item has them."""
    out: dict[str, Any] = {"item": item.item, "side": item.side, "points": item.points}
    if item.card is not None:
        out["card"] = card_name(item.card)
    if item.seat is not None:
        out["seat"] = item.seat
    if item.counts is not None:
        out["counts"] = list(item.counts)
    return out


def finished_hands(live: LiveGame) -> list[dict[str, Any]]:
    """The score of every finished hand: the breakdown, and the count the page turns up item by
    item with its checksum and the residue (public: every card named was face up)."""
    rules = live.rules
    return [
        {
            "hand": done.number,
            "dealer": done.dealer,
            "points": list(done.result.points),
            "breakdown": [done.result.breakdown(side) for side in range(rules.sides)],
            "cards": list(done.result.cards),
            "spades": list(done.result.spades),
            "sweeps": list(done.result.sweeps_made),
            "scores": list(done.scores),
            "count": [_count_item(item) for item in done.result.count],
            "checksum": done.result.checksum,
            "expected": expected_checksum(rules, done.result),
            "residue": {
                "seat": done.residue_seat if done.residue_seat >= 0 else None,
                "cards": list(_names(done.residue)),
            },
        }
        for done in live.finished
    ]


def table_json(view: View) -> dict[str, Any]:
    """The public table of a view: loose cards and builds with value, owner and kind."""
    builds = [
        {"cards": _names(b.cards), "value": b.value, "owner": b.owner, "single": build_is_single(b)}
        for b in view.builds
    ]
    return {"loose": _names(view.loose), "builds": builds}


def _between_hands(live: LiveGame) -> dict[str, Any]:
    """The parts that change only when a hand ends (or never), built once per hand."""
    key = (live.hand_number, live.over)
    if live.cache.get("key") != key:
        rules = live.rules
        live.cache["key"] = key
        live.cache["parts"] = {
            "rules": rules.to_json(),
            "rules_text": rules.describe(),
            "sides": rules.sides,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "bot": s.bot,
                    "side": rules.side_of(s.seat),
                    "joined": s.joined,
                }
                for s in live.seats
            ],
            "next_hand_after": live.next_after,
            "finished": finished_hands(live),
            "deals": [
                {"hand": h.number, "commitment": h.commitment, "revealed": live.revealed(h.number)} for h in live.hands
            ],
        }
    parts: dict[str, Any] = live.cache["parts"]
    return parts


def _next_deal(live: LiveGame) -> dict[str, Any] | None:
    """The next hand's published commitment and who has contributed to it (``fair.SCHEME``)."""
    deal = live.dealer.next if live.dealer is not None and not live.over else None
    if deal is None:
        return None
    return {"hand": deal.hand, "commitment": deal.commitment, "contributed": sorted(deal.contributions)}


def presence(live: LiveGame) -> list[dict[str, Any]]:
    """Who is at the table, seat by seat: a computer player has ``joined``; a person's seat is
    ``waiting`` until its invitation is opened, then ``online`` while a page of it is open and
    ``away`` once none is, each with since when (epoch seconds, None when not known)."""
    out: list[dict[str, Any]] = []
    for seat in live.seats:
        if seat.kind != HUMAN:
            out.append({"presence": "joined", "since": None})
        elif not seat.holder:
            out.append({"presence": "waiting", "since": None})
        else:
            where, since = live.presence.get(seat.seat, ("away", None))
            out.append({"presence": where, "since": since})
    return out


def _tournament(live: LiveGame) -> dict[str, Any] | None:
    """The tournament a game is a table of, and whether its deck is still sealed (the page links
    back to it, and offers the replay once it is not), or None. The seal is looked up only once
    the table is over (it asks the store): until then it is sealed."""
    if live.tournament is None:
        return None
    return {"id": live.tournament, "sealed": not live.over or live.sealed}


def _forfeit(live: LiveGame) -> dict[str, Any] | None:
    """The seat that forfeited the game and why (its program hung, crashed or answered no legal
    move; or the game was claimed from it: ``claimed`` says why, for the page's words)."""
    done = live.game.forfeited
    if done is None:
        return None
    return {"seat": done.seat, "reason": done.reason, "claimed": forfeit_json(done.reason)}


def _daily(live: LiveGame) -> dict[str, Any] | None:
    """The daily deal a game is an attempt at, and whether its deck and record are still sealed
    (the page offers its replay only once they are not), or None for any other game."""
    return None if live.daily is None else {"deal": live.daily, "sealed": live.sealed}


def public_payload(live: LiveGame) -> dict[str, Any]:
    """What everyone may see, a spectator's payload: no hand, no legal moves. During the count
    between hands (``phase``) the table is already the next hand's, but nothing may be played."""
    state = live.game.state
    view = spectator_view(state)
    return {
        "type": "state",
        "game": live.id,
        "version": live.ply,
        "you": None,
        **_between_hands(live),
        "status": "over" if live.over else "playing",
        "phase": live.phase,
        "abandoned": live.abandoned or None,
        "next_deal": _next_deal(live),
        "ready": sorted(live.ready),
        "waiting_for": live.waiting_for,
        "next_deadline": live.deadline,
        "winner": live.game.winner,
        "daily": _daily(live),
        "forfeit": _forfeit(live),
        "presence": presence(live),
        "rated": live.rated,
        "claims": [c.to_json() for c in claims(live)],
        "move_seconds": live.move_seconds,
        "move_deadline": move_deadline(live),
        "help": live.help_allowed,
        "tournament": _tournament(live),
        "scores": view.scores,
        "hand_number": live.hand_number,
        "deal": state.deal_number(),
        "dealer": view.dealer,
        "to_move": None if live.over else view.to_move,
        "table": table_json(view),
        "hand_sizes": view.hand_sizes,
        "captured": [_names(p) for p in view.captured],
        "stock": view.stock_size,
        "sweeps": view.sweeps,
        "last_capturer": view.last_capturer,
        "moves": [{"seat": s, "move": format_code(c)} for s, c in view.history],
    }


def state_payload(live: LiveGame, seat: int | None, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state as ``seat`` may see it (None: a spectator, public information only): the public
    payload (given, when one broadcast serves several seats) plus the seat's own view of its hand."""
    payload = dict(public if public is not None else public_payload(live))
    payload["you"] = seat
    if seat is not None:
        view = view_of(live.game.state, seat)
        payload["hand"] = _names(view.hand)
        legal = sorted(view.legal, key=format_code) if live.phase == "play" and not live.abandoned else []
        payload["legal"] = [legal_move(c) for c in legal]
        payload["can_undo"] = live.can_undo(seat)
        if seat == live.game.state.to_move and live.phase == "play" and not live.abandoned:
            payload["why_not"] = why_not(view).to_json()
    return payload


def encode(payload: dict[str, Any]) -> str:
    """A payload as the JSON text sent on a socket."""
    return json.dumps(payload, separators=(",", ":"))


def deal_of(view: View) -> int:
    """Which deal of its hand a view is in, from 1: ``State.deal_number`` from what the view shows
    (the stock's size), for the replay's "Deal 2 of 6"."""
    rules = view.rules
    if rules.draw:
        return 1
    return rules.deals_per_hand - view.stock_size // (4 * rules.players)


def _frame(frame: Frame) -> dict[str, Any]:
    view = frame.view
    move = None if frame.move is None else {"seat": frame.move[0], "move": format_code(frame.move[1])}
    return {
        "hand": frame.hand,
        "move": move,
        "hands": [_names(h) for h in frame.hands],
        "table": table_json(view),
        "stock": view.stock_size,
        "captured": [m.bit_count() for m in view.captured],
        "piles": [_names(p) for p in view.captured],
        "sweeps": list(view.sweeps),
        "dealer": view.dealer,
        "deal": deal_of(view),
        "scores": list(view.scores),
        "to_move": frame.to_move,
    }


def replay_frames(live: LiveGame) -> list[dict[str, Any]]:
    """Every position of a finished game with all hands shown, for the replay (never while playing)."""
    return [_frame(frame) for frame in live.frames()]
