"""Players that are programs of their own, and players loaded from Python files and modules.

The bot protocol's lines (exactly what a seat's view becomes, and that no hidden card is ever in
them), ``ProgramPlayer`` running small shell and Python bots that play, hang, crash, print
garbage, answer illegal moves or run out of memory (each a ``PlayerFaultError`` with its exact reason,
and no process left behind), the player specs ``bot:PATH``, ``MODULE:CLASS`` and
``FILE.py[:CLASS]`` at ``make_player`` and at the command line, and ``cassino.bots.host``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import cassino
from cassino import Game, IllegalMoveError, Move, MoveError, State
from cassino.arena import ArenaConfig, InProcessExecutor, identical_part, run_arena
from cassino.bots import ProgramPlayer, ProtocolError, decision_lines, read_decision
from cassino.bots.protocol import answer_code, read_bot_line
from cassino.cards import cards_of, parse_card
from cassino.players import make_player
from cassino.players.base import split_spec
from cassino.players.errors import PlayerFaultError, PlayerSpecError
from cassino.rules import make_rules
from cassino.view import View, view_of
from strategies import positions

SRC = Path(cassino.__file__).resolve().parent.parent
"""The folder the package under test is imported from: the command's processes import it too."""

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def command_env() -> dict[str, str]:
    """The environment of a ``cassino`` process that imports the package under test."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}


def run_cassino(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``cassino ARGS`` in a process of its own; never raises on a non-zero exit."""
    return subprocess.run(
        [sys.executable, "-m", "cassino.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=command_env(),
        check=False,
    )


def one_line_error(proc: subprocess.CompletedProcess[str], command: str) -> str:
    """The message of a user error: status 2, nothing on standard output, one line on standard error."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith(f"cassino {command}: ")
    return lines[0][len(f"cassino {command}: ") :]


# ----------------------------------------------------------------------------- the protocol


def position() -> State:
    """Seat 1 to move with 3d 3s Kd, after 'trail 5s' and seat 0's 8-build of Ah 2d 5s (seed 1)."""
    game = Game(seed=1)
    game.play("trail 5s")
    game.play("build Ah 8: 2d 5s")
    return game.state


def the_view() -> View:
    state = position()
    return view_of(state, state.to_move)


RULES_LINE = (
    'rules {"preset":"classic","players":2,"partnerships":false,"royal":false,"royal_ace_high":true,'
    '"court_capture":"one","sweeps":true,"sweeps_cancel":false,"capture_must_be_maximal":false,'
    '"trail_restriction":"none","owner_may_trail":false,"raise_own_build":true,"table_cards_may_raise":false,'
    '"duplicate_value_builds":false,"draw":false,"scoring":"standard","target":21,"tiebreak":"higher_total"}'
)


def test_the_lines_of_a_decision() -> None:
    assert decision_lines(the_view(), 2000, game=3, seed=7) == [
        "game 3",
        "seed 7",
        "seat 1",
        RULES_LINE,
        "position classic 2 0 1 6h9sTd[8:Ah2d5s@0] -/3d3sKd - -/- - - 0/0 -",
        "sizes 3/3",
        "stock 40",
        "played 1 trail 5s",
        "played 0 build Ah 8: 2d 5s",
        "legal trail 3d",
        "legal trail 3s",
        "legal trail Kd",
        "go 2000",
    ]


def test_a_decision_reads_back_to_its_view() -> None:
    lines = decision_lines(the_view(), 2000, game=3, seed=7)
    decision = read_decision(lines)
    assert (decision.game, decision.seed, decision.seat, decision.millis, decision.sizes, decision.stock) == (
        3, 7, 1, 2000, (3, 3), 40,
    )  # fmt: skip
    assert decision.view() == the_view()
    # unknown lines are passed over; only the played lines' order (the hand's) matters
    assert read_decision(["hello 1", lines[-1], *lines[6::-1], *lines[7:9], *reversed(lines[9:-1])]).view() == (
        the_view()
    )


@PROPERTY
@given(positions())
def test_no_hidden_card_is_ever_sent_and_the_view_comes_back(state: State) -> None:
    """Whatever the position, the lines hold no card of another hand nor of the stock, and read
    back to the very view they were written from (legal moves in the engine's order)."""
    if not state.hands[state.to_move]:
        return
    view = view_of(state, state.to_move)
    lines = decision_lines(view, 1000)
    hidden = set(state.remaining_stock)
    for seat, hand in enumerate(state.hands):
        if seat != view.seat:
            hidden |= set(cards_of(hand))
    sent = {parse_card(c) for line in lines for c in re.findall(r"[A2-9TJQK][cdhs]", line.partition(" ")[2])}
    assert not sent & hidden
    assert read_decision(lines).view() == view


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["go 10"], "a decision needs the lines game, seed, seat, rules, position, sizes, stock"),
        (["game 1", "seed x", "go 10"], "a decision needs the lines seat, rules, position, sizes, stock"),
        (["legal trail 9z"], "legal: in move 'trail 9z': '9z' is not a card"),
        (["go soon"], "go needs a whole number written with the digits 0-9, got 'soon'"),
    ],
)
def test_a_decision_that_cannot_be_read(lines: list[str], message: str) -> None:
    with pytest.raises(ProtocolError) as info:
        read_decision(lines)
    assert str(info.value).startswith(message)


def test_a_decision_whose_counts_do_not_add_up() -> None:
    lines = [line if not line.startswith("stock") else "stock 39" for line in decision_lines(the_view(), 10)]
    with pytest.raises(ProtocolError, match=r"^sizes 3/3 and stock 39 do not add up to the 43 cards"):
        read_decision(lines).view()


def test_what_a_bot_line_says() -> None:
    said = [read_bot_line(line) for line in ("move  trail 3d ", "ready", "id name x y", "info 3 ply", "", "blah")]
    assert [(s.kind, s.text) for s in said] == [
        ("move", "trail 3d"), ("ready", ""), ("id", "name x y"), ("skip", "3 ply"), ("skip", ""), ("other", "blah"),
    ]  # fmt: skip


def test_a_move_answer_is_a_line_or_what_the_game_says() -> None:
    view = the_view()
    kd = Move.parse("trail Kd").code
    assert answer_code("trail Kd", view) == answer_code("trail kd", view) == answer_code("trail K♦", view) == kd
    assert answer_code("Kd", view) == answer_code("K", view) == kd  # one move for the card, for the rank
    with pytest.raises(IllegalMoveError) as illegal:
        answer_code("trail 6h", view)
    assert illegal.value.reason == "6h is not in the hand of seat 1, the player to move"
    with pytest.raises(MoveError, match=r"^'3' could be any of 2 moves: trail 3d; trail 3s$"):
        answer_code("3", view)
    with pytest.raises(MoveError, match=r"^'blah' is not a move: "):
        answer_code("blah", view)


# ----------------------------------------------------------------------------- bots of the tests

PROLOGUE = """\
#!/bin/sh
echo $$ >> {pids}
first=""
while IFS= read -r line; do
    case $line in
        "cassino "*) {hello} ;;
        "position "*) set -- $line; hands=$7 ;;
        "legal "*) if [ -z "$first" ]; then first=${{line#legal }}; fi ;;
        "go "*) {go}; first="" ;;
        quit) exit 0 ;;
    esac
done
"""

GOOD = 'echo "move $first"'

ACTIONS = {
    "good": GOOD,
    "hang": "sleep 30 & echo $! >> {pids}; wait",
    "crash": "echo boom >&2; exit 1",
    "garbage": "echo blah",
    "illegal": "for c in Ac Ad Ah As 2c 2d 2h 2s 3c; do case $hands in *$c*) ;; *) break ;; esac; done; "
    'echo "move trail $c"',
    "once": 'echo "move $first"; exit 0',
    "closes": "exec >&-; sleep 30",
    "signal": "kill -9 $$",
    "chatty": 'head -c 300000 /dev/zero | tr "\\0" x >&2; echo "info thinking"; echo; printf "move  %s  \\r\\n" "$first"',
    "busy": "while :; do :; done",
}
"""What each test bot does when asked to move (sh code)."""

MEMORY_BOT = """\
#!{python}
import os, sys
with open({pids!r}, "a") as f:
    print(os.getpid(), file=f)
for line in sys.stdin:
    if line.startswith("cassino"):
        print("ready", flush=True)
    elif line.startswith("go"):
        hoard = bytearray(2 << 30)
"""


@pytest.fixture
def bots(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """The test bots by name, each writing its process number (and its children's) to ``pids``;
    after the test, every one of those processes must be gone."""
    pids = tmp_path / "pids"
    made: dict[str, Path] = {}
    for name, go in ACTIONS.items():
        path = tmp_path / f"{name}.sh"
        path.write_text(PROLOGUE.format(pids=pids, hello="echo ready", go=go.format(pids=pids)))
        made[name] = path
    for name, hello in (("rude", "echo hello there"), ("mute", "sleep 30 & echo $! >> {pids}; wait")):
        path = tmp_path / f"{name}.sh"
        path.write_text(PROLOGUE.format(pids=pids, hello=hello.format(pids=pids), go=GOOD))
        made[name] = path
    made["memory"] = tmp_path / "memory.py"
    made["memory"].write_text(MEMORY_BOT.format(python=sys.executable, pids=str(pids)))
    made["noshebang"] = tmp_path / "noshebang.sh"
    made["noshebang"].write_text("echo ready\n")
    made["nointerpreter"] = tmp_path / "nointerpreter.sh"
    made["nointerpreter"].write_text("#!/no/such/shell\necho ready\n")
    for path in made.values():
        path.chmod(0o755)
    yield made
    assert_all_gone(pids)


def assert_all_gone(pids: Path) -> None:
    """Every process listed in ``pids`` has ended: it is gone, or a zombie left for init to reap
    (a bot's child, whose parent was killed with it); none is a zombie of this process, which
    reaps the bots it starts."""
    numbers = [int(n) for n in pids.read_text().split()] if pids.exists() else []
    deadline = time.monotonic() + 5
    alive = numbers
    while alive and time.monotonic() < deadline:
        alive = [n for n in alive if _running(n)]
        time.sleep(0.02)
    assert not alive, f"processes left behind: {alive}"


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs, or is a zombie that this process should have reaped."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    fields = {key: value.strip() for key, _, value in (line.partition(":") for line in text.splitlines())}
    return not fields["State"].startswith("Z") or int(fields["PPid"]) == os.getpid()


def test_the_process_check_sees_a_running_process() -> None:
    with subprocess.Popen(["sleep", "5"]) as child:
        assert _running(child.pid) and _running(os.getpid())
        child.kill()
        time.sleep(0.1)
        assert _running(child.pid)  # a zombie of this process, not reaped yet
        child.wait()
    assert not _running(child.pid)


def test_a_bot_plays_and_is_closed(bots: dict[str, Path]) -> None:
    player = ProgramPlayer([str(bots["good"])], name="good", seed=4)
    assert player.pid is None and not player.running  # started at its first decision
    view = the_view()
    assert player.choose(view) == Move.parse("trail 3d").code
    pid = player.pid
    assert player.running and pid is not None and player.choose(view) == Move.parse("trail 3d").code
    assert player.pid == pid  # the same process answers the game's decisions
    player.close()
    assert player.pid is None and not Path(f"/proc/{pid}").exists()
    with ProgramPlayer([str(bots["good"])]) as again:
        again.choose(view)
        pid = again.pid
    assert pid is not None and not Path(f"/proc/{pid}").exists()


def test_a_bot_may_chat_on_its_error_output_and_write_info(bots: dict[str, Path]) -> None:
    """300 kB of standard error (more than a pipe holds), an info line, an empty line, spaces and
    a carriage return: the move still counts."""
    with ProgramPlayer([str(bots["chatty"])]) as player:
        assert player.choose(the_view()) == Move.parse("trail 3d").code


FAULTS = [
    ("hang", {"time": 0.3}, "timed out after 0.3 s"),
    ("crash", {}, "exited with status 1: boom"),
    (
        "garbage",
        {},
        "answered 'blah', which is no move: a bot answers go with 'move' and one of the legal moves, "
        "e.g. 'move trail 7h'",
    ),
    (
        "illegal",
        {},
        "answered 'trail Ac', which is not legal here: Ac is not in the hand of seat 1, the player to move",
    ),
    ("closes", {}, "closed its output without exiting"),
    ("signal", {}, "was killed by SIGKILL"),
    ("memory", {"memory": 200}, "exited with status 1: MemoryError (memory limit 200 MiB)"),
    ("busy", {"cpu": 1, "time": 10}, "ran out of its 1.0 s of CPU time"),
    ("rude", {}, "answered 'hello there' to 'cassino 1', where 'ready' was due (docs/bots.md)"),
    ("mute", {"start": 0.3}, "did not answer 'cassino 1' with 'ready' within 0.3 s"),
    ("noshebang", {}, "could not be started: Exec format error"),
    ("nointerpreter", {}, "could not be started: No such file or directory"),
]


@pytest.mark.parametrize(("bot", "limits", "reason"), FAULTS, ids=[f[0] for f in FAULTS])
def test_a_bot_at_fault(bots: dict[str, Path], bot: str, limits: dict[str, float], reason: str) -> None:
    """Each way a bot fails is a PlayerFaultError with its reason; the bot and its children are gone,
    and it stays at fault (the same fault again) unless it may restart."""
    player = ProgramPlayer([str(bots[bot])], name=bot, **limits)  # type: ignore[arg-type]
    with pytest.raises(PlayerFaultError) as info:
        player.choose(the_view())
    assert (info.value.player, info.value.reason) == (bot, reason)
    assert str(info.value) == f"player {bot!r} {reason}"
    assert player.pid is None and player.fault == reason
    with pytest.raises(PlayerFaultError) as again:
        player.choose(the_view())
    assert again.value.reason == reason
    player.close()


def test_a_bot_that_exits_between_moves(bots: dict[str, Path]) -> None:
    view = the_view()
    player = ProgramPlayer([str(bots["once"])], name="once")
    assert player.choose(view) == Move.parse("trail 3d").code
    time.sleep(0.1)
    with pytest.raises(PlayerFaultError) as info:
        player.choose(view)
    assert info.value.reason == "exited with status 0"
    restarting = ProgramPlayer([str(bots["once"])], name="once", restart=True)
    first = restarting.choose(view)
    pid = restarting.pid
    time.sleep(0.1)
    assert restarting.choose(view) == first and restarting.pid != pid  # a fresh process answered
    restarting.close()


def test_a_bot_at_fault_restarts_when_asked(bots: dict[str, Path]) -> None:
    player = ProgramPlayer([str(bots["crash"])], restart=True)
    for _ in range(2):
        with pytest.raises(PlayerFaultError, match="exited with status 1: boom"):
            player.choose(the_view())  # started afresh each time, and failing each time


def test_a_program_player_refuses_bad_settings() -> None:
    for wrong, message in [
        ({"time": 0}, "time must be more than 0 seconds, got 0"),
        ({"start": -1}, "start must be more than 0 seconds, got -1"),
        ({"memory": -1}, "memory and cpu must be 0 (no limit) or more, got -1 and 300.0"),
        ({"stderr": "loud"}, "stderr must be one of tail, discard, show, got 'loud'"),
    ]:
        with pytest.raises(PlayerSpecError) as info:
            ProgramPlayer(["/bin/true"], **wrong)  # type: ignore[arg-type]
        assert str(info.value) == message


# ----------------------------------------------------------------------------- specs


@pytest.mark.parametrize(
    ("spec", "split"),
    [
        ("bot:x.sh", ("bot:x.sh", {})),
        ("bot:bots/mine.sh:time=2,memory=256", ("bot:bots/mine.sh", {"time": "2", "memory": "256"})),
        ("bot:a:b.sh:time=2", ("bot:a:b.sh", {"time": "2"})),
        ("bot:a:b.sh", ("bot:a:b.sh", {})),
        ("bot:odd:x=y:", ("bot:odd:x=y", {})),
        ("players.mine:Mine", ("players.mine:Mine", {})),
        ("players.mine:Mine:depth=3", ("players.mine:Mine", {"depth": "3"})),
        ("path/to/mine.py", ("path/to/mine.py", {})),
        ("path/to/mine.py:Mine", ("path/to/mine.py:Mine", {})),
        ("path/to/mine.py:depth=3", ("path/to/mine.py", {"depth": "3"})),
        ("path/to/mine.py:Mine:depth=3,wide=true", ("path/to/mine.py:Mine", {"depth": "3", "wide": "true"})),
        ("search:worlds=30", ("search", {"worlds": "30"})),
        ("club", ("club", {})),
    ],
)
def test_the_grammar_of_specs(spec: str, split: tuple[str, dict[str, str]]) -> None:
    assert split_spec(spec) == split


def test_a_registered_name_is_never_a_module() -> None:
    with pytest.raises(PlayerSpecError, match=r"player setting 'worlds' in 'search:worlds' must be written key=value"):
        split_spec("search:worlds")


PLAYER_FILE = '''\
"""A player of someone's own."""

from cassino.view import View


class Lowest:
    """Trails or plays its lowest card's first move."""

    def __init__(self, seed: int | None = None, depth: int = 1, wide: bool = False) -> None:
        self.seed, self.depth, self.wide = seed, depth, wide

    def choose(self, view: View) -> int:
        return min(view.legal)


class Helper:
    """Not a player: no choose."""
'''


@pytest.fixture
def player_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder on sys.path with Python players: mine.py (one class), factory.py (a ``player``
    function), two.py (two classes), none.py (no player), broken.py (fails as it loads)."""
    (tmp_path / "mine.py").write_text(PLAYER_FILE)
    (tmp_path / "factory.py").write_text(
        "from mine import Lowest\n\n\ndef player(seed=None, **settings):\n    return Lowest(seed, depth=7)\n"
    )
    (tmp_path / "two.py").write_text(PLAYER_FILE + "\n\nclass Other(Lowest):\n    pass\n")
    (tmp_path / "none.py").write_text("X = 1\n")
    (tmp_path / "broken.py").write_text("1 / 0\n")
    (tmp_path / "bad_init.py").write_text(
        "class Bad:\n    name = 'bad'\n    def __init__(self):\n        raise RuntimeError('no')\n"
        "    def choose(self, view):\n        return 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_python_player_by_module_or_file(player_files: Path) -> None:
    by_module = make_player("mine:Lowest:depth=3,wide=yes", seed=5)
    assert (by_module.name, by_module.seed, by_module.depth, by_module.wide) == ("mine:Lowest", 5, 3, True)  # type: ignore[attr-defined]
    by_file = make_player(f"{player_files / 'mine.py'}:depth=2", seed=6)  # its one class
    assert (type(by_file).__name__, by_file.seed, by_file.depth) == ("Lowest", 6, 2)  # type: ignore[attr-defined]
    assert make_player(f"{player_files / 'mine.py'}:Lowest").choose(the_view()) == min(the_view().legal)
    made = make_player(str(player_files / "factory.py"), seed=1)
    assert made.depth == 7  # type: ignore[attr-defined]
    result = run_arena(ArenaConfig(("greedy", "mine:Lowest"), make_rules("classic"), 2, 1), InProcessExecutor())
    assert len(result.results) == 4 and all(r.forfeit == -1 for r in result.results)


def test_python_player_spec_errors(player_files: Path) -> None:
    mine = player_files / "mine.py"
    for spec, message in [
        ("nosuchmodule:Mine", "no module named 'nosuchmodule': a MODULE:CLASS spec imports from sys.path "
         "(add the module's folder to PYTHONPATH), or name a file: path/to/file.py:CLASS"),
        ("broken:Mine", "importing 'broken' failed: ZeroDivisionError: division by zero"),
        ("mine:Nope", "mine has no 'Nope'; the players it defines are: Lowest"),
        ("mine:Helper", "mine:Helper has no choose method: a player needs a name and choose(view)"),
        ("mine:View", "mine:View has no choose method: a player needs a name and choose(view)"),
        ("mine:Lowest:deep=3", "mine:Lowest has no setting 'deep'; did you mean 'depth'? its settings are: depth, wide"),
        ("mine:Lowest:depth=x", "mine:Lowest:depth must be a whole number, got 'x'"),
        ("bad_init:Bad", "building bad_init:Bad failed: RuntimeError: no"),
        ("missing.py", "no such file 'missing.py' (a FILE.py spec is relative to the current folder)"),
        (f"{player_files / 'two.py'}", f"{player_files / 'two.py'} defines several players: Lowest, Other; "
         f"name one, e.g. {player_files / 'two.py'}:Lowest"),
        (f"{player_files / 'none.py'}", f"{player_files / 'none.py'} defines no player: no class with a choose "
         "method, nor a function make_player or player"),
        (f"{player_files / 'broken.py'}", f"loading '{player_files / 'broken.py'}' failed: ZeroDivisionError: "
         "division by zero"),
        (f"{mine}:Nope", f"{mine} has no 'Nope'; the players it defines are: Lowest"),
    ]:  # fmt: skip
        with pytest.raises(PlayerSpecError) as info:
            make_player(spec)
        assert str(info.value) == message, spec


def test_bot_spec_errors(bots: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("")
    for spec, message in [
        ("bot:", "bot: needs the path of a program that speaks docs/bots.md's protocol, e.g. bot:./mybot.sh"),
        ("bot:no/such.sh", "no such file 'no/such.sh' (bot:PATH is taken from the current folder)"),
        (f"bot:{tmp_path}", f"{str(tmp_path)!r} is a folder, not a program"),
        (f"bot:{tmp_path / 'plain.txt'}", f"{str(tmp_path / 'plain.txt')!r} is not executable: make it so "
         "(chmod +x), with a first line such as #!/bin/sh"),
        (f"bot:{bots['good']}:tme=1", f"bot:{bots['good']} has no setting 'tme'; did you mean 'time'? its "
         "settings are: time, start, memory, cpu, restart, stderr"),
        (f"bot:{bots['good']}:time=soon", f"bot:{bots['good']}:time must be a number, got 'soon'"),
    ]:  # fmt: skip
        with pytest.raises(PlayerSpecError) as info:
            make_player(spec)
        assert str(info.value) == message, spec
    player = make_player(f"bot:{bots['good']}:time=1.5,memory=64,restart=yes", seed=3)
    assert isinstance(player, ProgramPlayer)
    assert (player.name, player.time, player.memory, player.restart, player.seed) == (
        f"bot:{bots['good']}", 1.5, 64, True, 3,
    )  # fmt: skip
    assert player.pid is None  # nothing started by a spec alone


def test_spec_errors_at_the_command_line(tmp_path: Path) -> None:
    assert one_line_error(run_cassino("arena", "greedy", "bot:no/such.sh"), "arena") == (
        "no such file 'no/such.sh' (bot:PATH is taken from the current folder)"
    )
    assert one_line_error(run_cassino("play", "--plain", "--no-save", "--opponent", "nosuchmodule:X"), "play") == (
        "no module named 'nosuchmodule': a MODULE:CLASS spec imports from sys.path (add the module's folder "
        "to PYTHONPATH), or name a file: path/to/file.py:CLASS"
    )
    (tmp_path / "none.py").write_text("X = 1\n")
    assert one_line_error(run_cassino("arena", "greedy", str(tmp_path / "none.py")), "arena") == (
        f"{tmp_path / 'none.py'} defines no player: no class with a choose method, nor a function make_player or player"
    )


def test_the_command_lines_help_names_the_forms() -> None:
    for command in ("arena", "play"):
        out = run_cassino(command, "--help").stdout
        assert "bot:PATH" in out and "MODULE:CLASS" in out and "FILE.py[:CLASS]" in out, command


def test_python_players_at_the_command_line(player_files: Path) -> None:
    """A file's class and a module's, in the arena's worker processes (from their specs) and as
    the opponent of ``cassino play``, whose game starts (the first computer move is made) and ends
    with the end of input."""
    out = run_cassino(
        "arena", "greedy", f"{player_files / 'mine.py'}:Lowest", "-n", "2", "--seed", "3", "--workers", "2", "-q"
    )
    assert out.returncode == 0, out.stderr
    assert f"greedy vs {player_files / 'mine.py'}:Lowest: classic, 2 players" in out.stdout
    assert "2 deals x 2 seatings = 4 games; seed 3" in out.stdout and "forfeits" not in out.stdout
    play = run_cassino("play", "--plain", "--no-save", "--seed", "1", "--opponent", f"{player_files / 'mine.py'}")
    assert play.returncode == 0, play.stderr
    assert f"Opponent: {player_files / 'mine.py'}." in play.stdout
    assert "Computer: trail 3♦" in play.stdout  # seat 1, the eldest, played its lowest card's move


def test_a_bot_as_the_opponent_of_cassino_play(bots: dict[str, Path]) -> None:
    play = run_cassino("play", "--plain", "--no-save", "--seed", "1", "--opponent", f"bot:{bots['good']}")
    assert play.returncode == 0, play.stderr
    assert f"Opponent: bot:{bots['good']}." in play.stdout
    assert "Computer: build five: 3♦ on 2♦" in play.stdout  # the first legal move, in words


# ----------------------------------------------------------------------------- the host


def host_command(spec: str, *more: str) -> list[str]:
    return [sys.executable, "-m", "cassino.bots.host", *more, spec]


def test_the_host_answers_the_protocol() -> None:
    lines = ["cassino 1", *decision_lines(the_view(), 2000, seed=5), "quit"]
    done = subprocess.run(
        host_command("greedy"),
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=command_env(),
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    expected = make_player("greedy", 5).choose(the_view())
    assert done.stdout.splitlines() == ["id name greedy", "ready", f"move {Move(expected)}"]


def test_the_host_refuses_a_bad_spec_and_bad_input() -> None:
    bad = subprocess.run(host_command("randm"), capture_output=True, text=True, env=command_env(), timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("cassino.bots.host: unknown player 'randm'; did you mean")
    broken = subprocess.run(
        host_command("greedy"), input="cassino 1\ngo 5\n", capture_output=True, text=True, env=command_env(), timeout=60
    )
    assert broken.returncode == 1
    assert broken.stderr == (
        "cassino.bots.host: a decision needs the lines game, seed, seat, rules, position, sizes, stock\n"
    )


def test_a_player_served_by_the_host_plays_as_in_the_engine(tmp_path: Path) -> None:
    """``random`` behind the protocol, with each game's seed, plays exactly the games it plays in
    the engine's own process: the view it is handed is the very view."""
    host = tmp_path / "random-host.sh"
    host.write_text(f'#!/bin/sh\nPYTHONPATH="{SRC}" exec "{sys.executable}" -m cassino.bots.host random\n')
    host.chmod(0o755)
    rules = make_rules("classic")
    alone = run_arena(ArenaConfig(("greedy", "random"), rules, 3, 9), InProcessExecutor())
    hosted = run_arena(ArenaConfig(("greedy", f"bot:{host}"), rules, 3, 9), InProcessExecutor())
    assert [r.forfeit for r in hosted.results] == [-1] * 6
    assert [(r.winner, r.scores, r.hand_points, r.moves) for r in hosted.results] == [
        (r.winner, r.scores, r.hand_points, r.moves) for r in alone.results
    ]


# ----------------------------------------------------------------------------- the arena


def test_faulty_bots_forfeit_and_the_other_games_go_on(bots: dict[str, Path], tmp_path: Path) -> None:
    """A round robin of greedy, random and five faulty bots, on two worker processes: each game of a
    faulty bot is its forfeit, with its reason; the games of greedy and random are exactly those of
    their match alone; every process is gone afterwards."""
    faulty = {
        f"bot:{bots['hang']}:time=0.5": re.escape("timed out after 0.5 s"),
        f"bot:{bots['crash']}": re.escape("exited with status 1: boom"),
        f"bot:{bots['garbage']}": re.escape(
            "answered 'blah', which is no move: a bot answers go with 'move' and one of the legal moves, "
            "e.g. 'move trail 7h'"
        ),
        f"bot:{bots['illegal']}": r"answered 'trail (..)', which is not legal here: \1 is not in the hand of seat "
        r"(\d), the player to move",
        f"bot:{bots['memory']}:memory=200": re.escape("exited with status 1: MemoryError (memory limit 200 MiB)"),
    }
    args = ["-n", "1", "--seed", "11", "--workers", "2", "-q"]
    out = run_cassino("arena", "greedy", "random", *faulty, *args, "--out", str(tmp_path / "all"))
    alone = run_cassino("arena", "greedy", "random", *args, "--out", str(tmp_path / "alone"))
    assert out.returncode == alone.returncode == 0, out.stderr + alone.stderr
    games = json.loads((tmp_path / "all" / "results.json").read_text())["games"]
    assert len(games) == 21 * 2
    reference = json.loads((tmp_path / "alone" / "results.json").read_text())["games"]
    assert [{k: v for k, v in g.items() if k != "think_seconds"} for g in games[:2]] == [
        {**{k: v for k, v in g.items() if k != "think_seconds"}} for g in reference
    ]
    for game in games[2:]:
        forfeit = game["forfeit"]
        assert forfeit is not None and forfeit["player"] in faulty, game
        assert game["seats"][forfeit["seat"]] == forfeit["player"] and game["winner"] != forfeit["player"]
        found = re.fullmatch(faulty[forfeit["player"]], forfeit["reason"])
        assert found, forfeit
        if found.groups():
            assert int(found.group(2)) == forfeit["seat"]
    counted = re.search(r"^forfeits: 40 \((.*)\)$", out.stdout, re.MULTILINE)
    assert counted, out.stdout
    assert f"bot:{bots['crash']}: exited with status 1: boom ×" in counted.group(1)


# ----------------------------------------------------------------------------- the examples

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bots"


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["first.sh", "captures.py"])
def test_an_example_bot_plays_a_hundred_games_against_casual(bot: str, tmp_path: Path) -> None:
    start = time.perf_counter()
    out = run_cassino(
        "arena", f"bot:{EXAMPLES / bot}", "casual", "--games", "50", "--seed", "2024", "--workers", "2", "-q",
        "--out", str(tmp_path), timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["settings"]["games"] == 100
    assert [g["forfeit"] for g in data["games"]] == [None] * 100
    assert {p["player"]: p["forfeits"] for p in data["summary"]["players"]} == {
        f"bot:{EXAMPLES / bot}": 0,
        "casual": 0,
    }
    assert "forfeits" not in out.stdout
    assert time.perf_counter() - start < 300


def test_the_example_bots_answer_a_decision() -> None:
    for bot, move in (("first.sh", "trail 3d"), ("captures.py", "trail 3d")):
        with ProgramPlayer([str(EXAMPLES / bot)], name=bot) as player:
            assert Move(player.choose(the_view())) == Move.parse(move), bot
            assert player.bot_name == bot


def test_bots_give_the_same_results_on_every_executor(bots: dict[str, Path], tmp_path: Path) -> None:
    """Forfeits and all: the same seed gives the same results in worker processes and in-process."""
    entrants = ["greedy", f"bot:{bots['good']}", f"bot:{bots['crash']}", f"bot:{bots['illegal']}"]
    runs = []
    for name, more in (("process", ["--workers", "2"]), ("inprocess", ["--executor", "inprocess"])):
        out = run_cassino("arena", *entrants, "-n", "2", "--seed", "5", "-q", *more, "--out", str(tmp_path / name))
        assert out.returncode == 0, out.stderr
        runs.append(json.loads((tmp_path / name / "results.json").read_text()))
    assert identical_part(runs[0]) == identical_part(runs[1])
    assert sum(g["forfeit"] is not None for g in runs[0]["games"]) == 20  # every game of the two faulty bots


@pytest.mark.parametrize("group", [False, True], ids=["kill -INT", "Ctrl-C"])
def test_ctrl_c_in_an_arena_stops_its_bots(bots: dict[str, Path], group: bool) -> None:
    """Bots run in sessions of their own, out of reach of the terminal's Ctrl-C: when the arena is
    interrupted (the whole process group, or ``kill -INT`` of the arena alone, after which the pool
    ends its workers with SIGTERM), the workers kill the bots of the games under way."""
    pids = bots["busy"].parent / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cassino.cli", "arena", f"bot:{bots['busy']}:time=60", "greedy", "-n", "4", "-q"],
        env=command_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not (pids.exists() and len(pids.read_text().split()) >= 2) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # both bots are thinking, forever
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the arena did not end within 30 s of Ctrl-C")
    assert (proc.returncode, out, err) == (130, b"", b"cassino arena: interrupted\n")
