"""What the documents promise about how long a peer keeps trying to reach a host that went away
is what the program does: ``liveness.GIVE_UP`` seconds ("a minute"), the default of ``palazzo
join --give-up``, and the time the headless join and the table are given."""

import inspect
from pathlib import Path

from net.session.commands import play
from net.session.features import liveness
from net.session.runners.peer import PeerRunner
from tui import netgame
from tui.cli import build_parser

ROOT = Path(__file__).parents[2]


def test_give_up_is_a_minute_and_the_default_everywhere():
    assert liveness.GIVE_UP == 60.0  # "a minute" below
    args = build_parser().parse_args(["join", "127.0.0.1:7342", "--bot", "greedy"])
    assert args.give_up == liveness.GIVE_UP
    for f in (play.join_game, netgame.join_net, PeerRunner.__init__):
        assert inspect.signature(f).parameters["give_up"].default == liveness.GIVE_UP, f


def test_the_documents_promise_what_give_up_does():
    commandline = " ".join((ROOT / "docs" / "commandline.md").read_text().split())
    assert "try the host again by themselves for a minute after they last heard it" in commandline
    protocol = " ".join((ROOT / "docs" / "protocol.md").read_text().split())
    assert f"until {liveness.GIVE_UP:g} s after the peer last heard it" in protocol
    assert f"gives up, {liveness.GIVE_UP:g} s after it last heard the host" in protocol
