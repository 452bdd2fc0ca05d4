"""What the game's routes and socket messages answer, apart from what carries them: the server's
HTTP routes and WebSocket (``app``) and the page that plays offline, whose worker answers the same
requests and messages (``offline``). One place for each answer, so both front ends play alike.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..learn import TUTORIAL_RULES
from .errors import ServiceError
from .limits import brief, move_text, parse_json, whole_number
from .model import LiveGame
from .payloads import encode, state_payload
from .requests import rules_of_request, watch_link
from .service import GameService
from .teaching import lessons_json

SOCKET_MESSAGES = (
    *("move", "next", "undo", "contribute", "hint", "coach", "lessons", "claim"),
    *("chat", "chat_settings", "chat_history"),  # chat at the table (chat.py)
    "state",
)
"""The types of message a game's socket answers; a refusal names the one it answers (``request``)."""

log = logging.getLogger("cassino.web")

Later = Callable[[str, Awaitable[dict[str, Any]]], None]
"""Answer a message with a search's result when it is ready (its kind, the search)."""


class Searches:
    """The answers of one socket that take a search (a hint, a coach's note): each a task of its
    own, so the socket goes on reading meanwhile, and cancelled when the socket closes."""

    def __init__(self, game_id: str, put: Callable[[str], None]) -> None:
        self.game_id, self.put = game_id, put
        self.tasks: set[asyncio.Task[None]] = set()

    async def _answer(self, kind: str, work: Awaitable[dict[str, Any]]) -> None:
        try:
            self.put(encode({"type": kind, **await work}))
        except ServiceError as exc:
            self.put(encode(error_frame(exc, kind)))
        except Exception:
            log.exception("game %s: the %s answer failed", self.game_id, kind)
            refusal = ServiceError(500, f"the {kind} could not be worked out just now: try again")
            self.put(encode(error_frame(refusal, kind)))

    def later(self, kind: str, work: Awaitable[dict[str, Any]]) -> None:
        """Answer with ``work``'s result (a message of type ``kind``) when it is ready."""
        task = asyncio.get_running_loop().create_task(self._answer(kind, work))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def cancel(self) -> None:
        """The socket closed: nobody is left to answer."""
        for task in list(self.tasks):
            task.cancel()


def error_frame(exc: ServiceError, request: str | None = None) -> dict[str, Any]:
    """A refusal as a socket message: like an HTTP error's JSON, with its type and status, and the
    type of the message it answers (``request``) when that was read."""
    frame = {"type": "error", "status": exc.status, **exc.payload(), "error": brief(exc.message)}
    if request is not None:
        frame["request"] = request
    return frame


def created(service: GameService, live: LiveGame, tokens: dict[int, str], invites: dict[int, str]) -> dict[str, Any]:
    """The answer to a new game (``POST /api/games``): each seat with the creator's token or an
    invitation, and the links that open them."""
    seats = []
    for s in live.seats:
        entry: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot}
        if s.seat in tokens:
            entry["token"] = tokens[s.seat]
            entry["link"] = f"/#game={live.id}&token={tokens[s.seat]}"
        elif s.seat in invites:
            entry["invite"] = invites[s.seat]
            entry["link"] = f"/#game={live.id}&invite={invites[s.seat]}"
        seats.append(entry)
    return {
        "game": live.id,
        "you": next(iter(tokens), None),
        "seats": seats,
        "spectate": watch_link(live.id),
        "listed": live.listed,
        "help": live.help_allowed,
        "next_hand_after": live.next_after,
        "chat": service.chats.table(live).mode,
    }


def lessons(service: GameService, query: Mapping[str, str]) -> dict[str, Any]:
    """Every lesson to read at any time (``GET /api/lessons``), worded for a game's rules
    (``?game=ID``), a variant (``?preset=royal&players=3``) or, without either, the guided first
    game's."""
    if "game" in query:
        rules = service.get(query["game"]).rules
    elif "preset" in query or "players" in query:
        players = query.get("players", "2")
        if not players.isdigit():
            raise ServiceError(400, "players must be a number of players: 2, 3 or 4")
        rules = rules_of_request({"preset": query.get("preset", "classic"), "players": int(players)})
    else:
        rules = TUTORIAL_RULES
    return {"lessons": lessons_json(rules)}


def answer_message(
    service: GameService,
    live: LiveGame,
    seat: int | None,
    token: str | None,
    client: str,
    text: str | None,
    put: Callable[[str], None],
    later: Later,
) -> None:
    """Answer one message of a game's socket (``text``: its frame, None for a binary one): a move,
    next, undo, a claim, a contribution, the chat, the state at once (what changes the game is
    broadcast to every watcher by the service); a hint and a coach's note through ``later``, since
    they take a search. A refusal is ``put`` as an error frame naming the message it answers, and
    changes nothing; a bug is refused as an internal error, so the socket stays open."""
    kind: str | None = None
    try:
        if text is None:
            raise ServiceError(400, "messages must be text frames holding a JSON object, not binary")
        message = parse_json(text, "a message")
        named = message.get("type")
        kind = named if named in SOCKET_MESSAGES else None
        if kind == "move":
            service.play(
                live.id, token, move_text(message.get("move")), whole_number(message.get("version"), "version"), client
            )
        elif kind == "next":
            if not service.press_next(live.id, token):  # pressed before: nothing was broadcast
                put(encode(state_payload(service.get(live.id), seat)))
        elif kind == "undo":
            service.undo(live.id, token, client=client)
        elif kind == "claim":
            service.claim_game(live.id, token, {k: v for k, v in message.items() if k != "type"}, client=client)
        elif kind == "contribute":
            service.contribute(live.id, token, message.get("hand"), message.get("value"), client=client)
        elif kind == "hint":
            later("hint", service.coaching.hint(live.id, token))
        elif kind == "coach":
            later("coach", service.coaching.coach(live.id, token, whole_number(message.get("ply"), "ply")))
        elif kind == "lessons":
            due = service.coaching.lessons(live.id, token, message.get("seen"))
            put(encode({"type": "lessons", "version": live.ply, "due": due}))
        elif kind == "chat":
            service.chats.send(live.id, token, {k: v for k, v in message.items() if k != "type"})
        elif kind == "chat_settings":
            service.move_limit.take(client)
            service.chats.set_free(live.id, token, message)
        elif kind == "chat_history":
            service.chat_reads.take(client)
            put(encode(service.chats.history(live, seat)))
        elif kind == "state":
            put(encode(state_payload(service.get(live.id), seat)))
        else:
            listed = ", ".join(repr(k) for k in SOCKET_MESSAGES[:-1])
            raise ServiceError(400, f"message type must be {listed} or {SOCKET_MESSAGES[-1]!r}")
    except ServiceError as exc:
        put(encode(error_frame(exc, kind)))
    except Exception:  # a bug: logged, answered, and the socket stays open
        log.exception("game %s: a socket message failed", live.id)
        put(encode(error_frame(ServiceError(500, "internal error"), kind)))
