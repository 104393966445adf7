import random

from engine.core import LocalGame
from engine.medici import RULES, MediciConfig
from engine.medici.bots import GreedyBot, RandomBot


def test_a_seeded_bot_game_replays_exactly():
    def play(seed):
        game = LocalGame(RULES, MediciConfig(4), seed)
        bots = [RandomBot(random.Random(i)) for i in range(2)] + [GreedyBot(random.Random(9))] * 2
        return game.play_out(bots), [s.action for s in game.history]

    assert play(5) == play(5)
    assert play(5)[1] != play(6)[1]
