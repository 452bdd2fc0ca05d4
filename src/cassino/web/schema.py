"""What the web app stores, as SQL tables and as the rows the store reads and writes.

A game's position is never stored: it is rebuilt by replaying the stored moves on the stored decks.
Seat tokens and invitations are stored only as SHA-256 hashes. Tables added after the first release
(settings, invitations, activity, the count's presses, seeds, contributions, tickets, forfeits, help,
and the accounts': accounts, sessions, seat holders, sign-in failures) are new tables,
so ``create_all`` adds them to an existing database; a game without a settings row is listed and
has no count timer, as games were before, and one without an activity row has no known last move
(it starts counting towards its expiry when it is loaded).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from ..club.chat import MAX_TEXT as MAX_CHAT_TEXT
from .rows import MAX_REASON as MAX_REASON
from .rows import TICKET_SECONDS as TICKET_SECONDS
from .rows import HandRow as HandRow
from .rows import InviteRow as InviteRow
from .rows import MoveRow as MoveRow
from .rows import NewGame as NewGame
from .rows import Progress as Progress
from .rows import SeatRow as SeatRow
from .rows import StoredGame as StoredGame

metadata = MetaData()


games_table = Table(
    "cassino_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("rules", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("winner", Integer, nullable=False),
    Column("moves", Integer, nullable=False),
)
seats_table = Table(
    "cassino_seats",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("bot", String(128), nullable=False),
    Column("bot_seed", Integer, nullable=False),
    Column("token_hash", String(64), nullable=False),
)
hands_table = Table(
    "cassino_hands",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("deck", Text, nullable=False),
    Column("salt", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)
moves_table = Table(
    "cassino_moves",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("hand", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("move", String(80), nullable=False),
)

settings_table = Table(
    "cassino_game_settings",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("listed", Boolean, nullable=False),
    Column("next_hand_after", Integer, nullable=False),
    Column("count_deadline", Float, nullable=True),
)
"""What a game's creator chose beyond the rules, and when the current count between hands ends."""
invites_table = Table(
    "cassino_invites",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("code_hash", String(64), nullable=False),
    Column("claimed", Float, nullable=True),
)
"""One invitation per person's seat other than the creator's: its code's hash, and when it was used."""
activity_table = Table(
    "cassino_game_activity",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("last_move", Float, nullable=False),
)
"""When a game was last moved (or created): a game left for too long is abandoned, not resumed."""
ready_table = Table(
    "cassino_ready",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
)
"""The people who pressed next in the count before a hand: stored, so that every server process
(and a restarted one) knows who is still awaited."""

seeds_table = Table(
    "cassino_deal_seeds",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seed", String(64), nullable=False),
)
"""The server's secret seed of each hand (``fair.SCHEME``), stored when it is committed: a hand
ahead, so that its commitment is published before anyone contributes to it."""
contributions_table = Table(
    "cassino_contributions",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("value", String(64), nullable=False),
)
"""Each person's contribution to a hand's deck, taken until the hand is dealt."""
help_table = Table(
    "cassino_game_help",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("allowed", Boolean, nullable=False),
)
"""Whether the people at a game may ask for hints and the coach's notes: off by default between
people (a contest), on against computer players; a game without a row (made before) allows them."""
forfeits_table = Table(
    "cassino_forfeits",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("reason", String(MAX_REASON), nullable=False),
)
"""The seat that could not go on (its program hung, crashed or answered no legal move) and why: the
game is over, its side lost (``Game.forfeit``)."""
tickets_table = Table(
    "cassino_deal_tickets",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("created", Float, nullable=False),
)
"""Seeds committed before a game exists, for its first hand: the page asks for one, then creates
the game with its own contribution. Each is used once, and forgotten after ``TICKET_SECONDS``."""

accounts_table = Table(
    "cassino_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=False, unique=True),
    Column("password_hash", String(256), nullable=False),
    Column("joined", Float, nullable=False),
    Column("deleted", Float, nullable=True),
)
"""Accounts (``cassino.club.accounts``): a name as its owner wrote it, its lower case (unique:
names are one whatever their case), an Argon2id hash and never a password. A deleted account keeps
its row under an anonymous name with no hash, so that the seats it held keep a player."""
sessions_table = Table(
    "cassino_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
)
"""Sessions, by the SHA-256 of their token (the browser's cookie holds the token), so that the
database opens none; in the database, so that every server process knows them."""
seat_holders_table = Table(
    "cassino_seat_holders",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), nullable=False, index=True),
    Column("since", Float, nullable=False),
)
"""The account that holds a person's seat (brought at sign-up or sign-in with the seat's token):
one account per seat, the first to bring it."""
rated_games_table = Table(
    "cassino_rated_games",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("pool", String(20), nullable=False),
    Column("rated_at", Float, nullable=True),
)
"""Games that count for ratings (made from a rated seek, every seat a person with an account), with
their pool (``cassino.club.ratings.rating_key``) and when their result was counted (null until
then, so that each is counted once, by whichever process sees it end first)."""
sign_in_failures_table = Table(
    "cassino_sign_in_failures",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("since", Float, nullable=False, index=True),
)
"""Password attempts counted against an address (``address:IP``) or a name (``name:KEY``) since
the window began: in the database, so that every server process counts the same."""

# ---------------------------------------------------------------------- the lobby's seeks (web/seeks.py)
seeks_table = Table(
    "cassino_seeks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), nullable=False, index=True),
    Column("preset", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("partnerships", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("pool", String(20), nullable=False, index=True),
    Column("rating", Float, nullable=False),
    Column("provisional", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("status", String(12), nullable=False, index=True),
    Column("open_slot", String(32), nullable=True),
    Column("game_id", String(32), nullable=True),
    Column("ended", Float, nullable=True),
    Column("away_since", Float, nullable=True),
    UniqueConstraint("account_id", "open_slot", name="cassino_seeks_one_open"),
)
"""The lobby's seeks (``kind`` ``seek``) and Play now requests (``now``): who made it, its preset,
seating and pool, the creator's rating when it was made (and whether it was provisional), and its
``status``: ``open``, ``full``
(its game is ``game_id``), ``cancelled``, ``expired`` or ``merged`` (a Play now request joined to an
older one). ``open_slot`` is ``KIND:POOL`` while it is open and null after, so that the unique
constraint allows one open seek per account, kind and pool; ``away_since`` is when the creator's
last lobby page closed (null while one is open)."""
seek_members_table = Table(
    "cassino_seek_members",
    metadata,
    Column("seek_id", String(32), ForeignKey("cassino_seeks.id"), primary_key=True),
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), primary_key=True, index=True),
    Column("place", Integer, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("token_key", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("away_since", Float, nullable=True),
)
"""Who sits at a seek: its creator (``place`` 0) and each joiner in the order they joined, with the
hash of the seat token its browser will hold (``club.seeks.seat_token`` of its session and of
``token_key``, the id of the request it came with: the seek's own, or a Play now request joined to
it), its rating when it joined, and since when its lobby page has been closed."""

lobby_online_table = Table(
    "cassino_lobby_online",
    metadata,
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), primary_key=True),
    Column("origin", String(16), primary_key=True),
    Column("seen", Float, nullable=False, index=True),
)
"""Who has a lobby page open, by server process (``Store.origin``): each process writes its own
rows, when a page opens or its account's last page there closes, and every sweep marks them
``seen`` again, so that the people of a process that was killed drop out once their rows age."""

# ---------------------------------------------------------------------- the daily deal (club/daily.py): new tables
daily_deals_table = Table(
    "cassino_daily_deals",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("date", String(10), nullable=False, index=True),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("created", Float, nullable=False),
)
"""Each deal of a day (``club.daily.deals_of``): the server's secret seed, drawn when the day's
deals were first asked for, and its published SHA-256; the seed is shown once the day is over."""
daily_attempts_table = Table(
    "cassino_daily_attempts",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("deal_id", String(32), ForeignKey("cassino_daily_deals.id"), nullable=False, index=True),
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), nullable=True, index=True),
    Column("started", Float, nullable=False),
    Column("score", Integer, nullable=True),
    Column("finished", Float, nullable=True),
    UniqueConstraint("deal_id", "account_id", name="cassino_daily_one_attempt"),
)
"""Each attempt at a daily deal: its game (one hand, the person at ``club.daily.SEAT``), the
account that played it (null: a guest, whose attempt its browser keeps) and, once the hand is
over, its score. The unique constraint is the one attempt per account (guests' nulls differ)."""
daily_master_table = Table(
    "cassino_daily_master",
    metadata,
    Column("deal_id", String(32), ForeignKey("cassino_daily_deals.id"), primary_key=True),
    Column("score", Integer, nullable=False),
    Column("computed", Float, nullable=False),
)
"""How ``master`` scored from the person's seat on each deal (``club.daily.master_score``),
worked out once, the first time a finished attempt's leaderboard asks: a table of its own, so a
database made before it gets it by ``create_all``."""

# ---------------------------------------------------------------------- tournaments (web/tournaments.py): new tables
tournaments_table = Table(
    "cassino_tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("preset", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("minutes", Float, nullable=False),
    Column("organiser", String(32), ForeignKey("cassino_accounts.id"), nullable=False),
    Column("status", String(12), nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("started", Float, nullable=True),
    Column("ends", Float, nullable=True),
    Column("starts", Float, nullable=True),
)
"""A tournament (``club.pairing``, ``club.standings``): a Swiss of ``rounds`` rounds or an arena of
``minutes``, its organiser, its ``status`` (``open`` for entries, ``running``, ``over``, or
``cancelled`` when its set time came with too few entrants), the round in play (in an arena: the
deals committed so far) and when it starts by itself (null: when its organiser starts it)."""
tournament_entrants_table = Table(
    "cassino_tournament_entrants",
    metadata,
    Column("tournament_id", String(32), ForeignKey("cassino_tournaments.id"), primary_key=True),
    Column("place", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
    UniqueConstraint("tournament_id", "account_id", name="cassino_tournament_one_entry"),
    UniqueConstraint("tournament_id", "name", name="cassino_tournament_one_name"),
)
"""Who plays, in the seeding order (``place``): an account (with the hash of the seat token its
browser derives for every game of the tournament) or a computer player the organiser entered."""
tournament_deals_table = Table(
    "cassino_tournament_deals",
    metadata,
    Column("tournament_id", String(32), ForeignKey("cassino_tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)
"""Each deal of a tournament (a Swiss round's, an arena's in order): its secret seed, committed
before any table plays it, revealed once the tournament is over."""
tournament_games_table = Table(
    "cassino_tournament_games",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("tournament_id", String(32), ForeignKey("cassino_tournaments.id"), nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("deal", Integer, nullable=False),
    Column("sides", Text, nullable=False),
    Column("computers", Text, nullable=False),
    Column("scores", Text, nullable=True),
    Column("winner", Integer, nullable=True),
    Column("finished", Float, nullable=True),
)
"""Each table of a tournament: its round and number, the deal it plays, the name on each side (JSON)
and the sides of a bye's computer player, and, once its hand is over, each side's points and the
winner (-1: equal points, a draw)."""

# ------------------------------------------------------------------ chat at the table (club/chat.py): new tables too
chat_table = Table(
    "cassino_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("cassino_games.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Column("phrase", String(32), nullable=True),
    Column("text", String(MAX_CHAT_TEXT), nullable=True),
    sqlite_autoincrement=True,
)
"""The last messages of each game's chat (``cassino.club.chat.HISTORY``), each a preset phrase's id
or a free text, with its seat, the seat's name and when it was sent: in the database, so that a
page reloaded, or one served by another process, shows the same history, and so that the limit
on each seat's messages counts the same in every process."""
chat_settings_table = Table(
    "cassino_chat_settings",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("mode", String(8), nullable=False),
)
"""The chat its creator chose for a game (``phrases`` or ``free``); a game without a row has
phrases only."""
chat_quiet_table = Table(
    "cassino_chat_quiet",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
)
"""The seats that turned free text off for themselves at a game: they neither send nor see it."""


# ---------------------------------------------------------------------- leaving and the move clock (web/leave.py): new tables
game_clocks_table = Table(
    "cassino_game_clocks",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("move_seconds", Integer, nullable=False),
    Column("count_ended", Float, nullable=True),
)
"""A rated game's move clock: the seconds each move may take, and when the last count between hands
ended by everyone pressing next (null until one did): with the time of the last move
(``cassino_game_activity``) and the count's own deadline, when the turn in play began, the same in
every process. A game without a row has no clock."""
seek_clocks_table = Table(
    "cassino_seek_clocks",
    metadata,
    Column("seek_id", String(32), ForeignKey("cassino_seeks.id"), primary_key=True),
    Column("move_seconds", Integer, nullable=False),
)
"""The move clock a rated seek or Play now request asked for (a seek without a row has none)."""


# ---------------------------------------------------------------------- ratings and profiles
ratings_table = Table(
    "cassino_ratings",
    metadata,
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), primary_key=True),
    Column("pool", String(20), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("updated", Float, nullable=True),
    Index("ix_cassino_ratings_pool_rating", "pool", "rating"),
)
"""Each account's Glicko-2 rating in each pool it played a rated game in
(``cassino.club.ratings.Standing``): the rating, RD and volatility, the games, wins, points and
hands counted, and when it last changed (null only inside the transaction that makes the row)."""
rating_changes_table = Table(
    "cassino_rating_changes",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("cassino_accounts.id"), nullable=False, index=True),
    Column("pool", String(20), nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("rd_after", Float, nullable=False),
)
"""What each rated game did to each of its players' ratings: a profile shows it beside the game,
and a game without these rows was not rated."""
game_results_table = Table(
    "cassino_game_results",
    metadata,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("scores", String(64), nullable=False),
    Column("hands", Integer, nullable=False),
    Column("forfeit", Integer, nullable=True),
    Column("finished", Float, nullable=False),
)
"""How each finished game ended, written by the first process that sees it over: each side's final
points (JSON), the hands played, the seat that forfeited and when, so that a profile lists a
player's games without replaying them."""
