"""What the club refuses: each refusal says what was wrong and changes nothing.

The kinds are the club's own, not a transport's: the web answers each with its HTTP status. Each
carries a ``code`` (``name_taken``, ``wrong_password``, ...) so that a page can word it in its own
language; all are ``CassinoError``.
"""

from __future__ import annotations

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


__all__ = [
    "AccountError",
    "AccountInputError",
    "NameTakenError",
    "NoSuchPlayerError",
    "NoSuchSeekError",
    "NotSignedInError",
    "NotYourSeekError",
    "SeekConflictError",
    "SeekError",
    "SeekInputError",
    "SignInError",
    "TooManyAttemptsError",
]
