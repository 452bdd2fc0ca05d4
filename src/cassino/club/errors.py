"""What the club refuses: each refusal says what was wrong and changes nothing.

The kinds are the club's own, not a transport's: the web answers each with its HTTP status. Each
carries a ``code`` (``name_taken``, ``wrong_password``, ...) so that a page can word it in its own
language; all are ``CassinoError``.
"""

from __future__ import annotations

from typing import Any

from ..errors import CassinoError


class AccountError(CassinoError):
    """A request about an account that the club refuses; ``code`` names the kind of problem."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class AccountInputError(AccountError):
    """A name, password or field that breaks the rules (a name's characters, a password's length)."""


class NameTakenError(AccountError):
    """A new account's name that another account has (names are unique whatever their case)."""


class SignInError(AccountError):
    """A wrong password, or a name no account has: the same refusal for both, so that nobody
    learns which names exist by guessing."""


class NotSignedInError(AccountError):
    """A request that needs a session, without one (none sent, or ended, or expired)."""


class NoSuchPlayerError(AccountError):
    """A profile asked for by a name no account has."""


class TooManyAttemptsError(AccountError):
    """Too many wrong passwords from one address or for one name: ``retry_after`` seconds to wait."""

    def __init__(self, message: str, code: str, retry_after: int) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after


# ---------------------------------------------------------------------- the lobby's seeks (club/seeks.py)
class SeekError(CassinoError):
    """A seek request the club refuses; ``code`` names the kind of problem for the page."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class SeekInputError(SeekError):
    """A field of a seek or Play now request that breaks the rules (400)."""


class NoSuchSeekError(SeekError):
    """A seek id nobody posted (404)."""


class NotYourSeekError(SeekError):
    """Cancelling another account's seek (403)."""


class SeekConflictError(SeekError):
    """A seek that is no longer open, already joined, one's own, or one too many (409)."""


# chat at the table (cassino.club.chat)


class ChatError(CassinoError):
    """A chat request refused; ``code`` (one of ``CODES``) names the kind of problem."""

    def __init__(self, message: str, code: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.extra: dict[str, Any] = extra
        """More to say (``phrase``: the unknown one; ``max``: the longest text)."""


class ChatInputError(ChatError):
    """A message or setting that breaks the rules: an unknown phrase, a text empty, too long or
    with a control character, an unknown field."""


class ChatClosedError(ChatError):
    """Free text where it is off: the creator chose phrases only, or the seat turned it off."""


class ChatRateError(ChatError):
    """A seat that sent its allowance within the window: ``retry_after`` seconds until the next
    is taken (the oldest of the window leaves it)."""

    def __init__(self, wait: float, burst: int, window: float) -> None:
        self.retry_after = max(1, int(-(-wait // 1)))
        super().__init__(
            f"too many chat messages: at most {burst} in {window:g} s from a seat; try again in {self.retry_after} s",
            "too_many",
            retry_after=self.retry_after,
        )


# tournaments (cassino.club.pairing, cassino.club.standings)


class TournamentError(CassinoError):
    """A tournament request the club refuses; ``code`` names the kind of problem for a page."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class TournamentInputError(TournamentError):
    """Entrants, results or settings that make no tournament: too few entrants for a table, a name
    given twice, a result of someone who is no entrant, a deal that was never committed."""


class PairingError(TournamentError):
    """No pairing of the next round keeps the rules: every way of seating the entrants repeats a
    meeting (a Swiss of more rounds than the entrants allow), or a bye would go to someone twice
    while others have had none."""


# ---------------------------------------------------------------------- the daily deal (club/daily.py)
class DailyError(CassinoError):
    """A daily deal request the club refuses."""


class AlreadyPlayedError(DailyError):
    """The account has made its one attempt at this deal already."""


__all__ = [
    "AccountError",
    "AccountInputError",
    "AlreadyPlayedError",
    "ChatClosedError",
    "ChatError",
    "ChatInputError",
    "ChatRateError",
    "DailyError",
    "NameTakenError",
    "NoSuchPlayerError",
    "NoSuchSeekError",
    "NotSignedInError",
    "NotYourSeekError",
    "PairingError",
    "SeekConflictError",
    "SeekError",
    "SeekInputError",
    "SignInError",
    "TooManyAttemptsError",
    "TournamentError",
    "TournamentInputError",
]
