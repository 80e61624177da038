"""Scripted Durchgänge the fault tests play through the console channel, each with its dice.

A script is a list of console lines (``NAME: TEXT``, moderator ``mod``) and the faces the croupier
will roll, in order. Every line gets a fixed message id (``#<script>-<n>``), so a line sent again after
a crash is the same message, as a front end's redelivery would be. The scripts mix accepted moves,
refusals and chit-chat, because a crash may hit any of them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Script:
    name: str
    lines: tuple[str, ...]  # "#id NAME: TEXT"
    dice: tuple[int, ...]
    players: tuple[str, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(line.split()[0][1:] for line in self.lines)


def _numbered(name: str, lines: list[str]) -> tuple[str, ...]:
    return tuple(f"#{name}-{number} {line}" for number, line in enumerate(lines, start=1))


# Robbery (a robbing 1 against a Prinzessin and against a Jungfrau), Hirtenschutz, a Beefmaker that
# hits a Jungfrau, a won ALL IN, a Rattenlord won on the second die, a bust, and a close that ends a
# running Spiel — with refusals (not your turn, unknown joker, nothing to decide) and chit-chat mixed in.
ROBBERY = Script(
    name="robbery",
    players=("anna", "ben", "cleo", "dora"),
    dice=(4, 3, 5, 5, 1, 3, 3, 2, 2, 2, 1, 6, 3, 2, 5, 4),
    lines=_numbered(
        "robbery",
        [
            "mod: /open verflixte6",
            "anna: /join",
            "ben: /join",
            "cleo: /join",
            "dora: /join",
            "anna: Joker: Hirtenschutz, Spelunkenbold",
            "ben: weiter",  # refused: anna is to act
            "anna: weiter",  # Freiwurf 4
            "anna: weiter",  # 3 → 7
            "cleo: na, wer traut sich heute?",  # chit-chat
            "anna: weiter mit Joker Hirtenschutz",  # 5 doubled → 17
            "anna: weiter mit Joker Rattenlrd",  # refused: unknown joker
            "anna: stopp",  # Prinzessin 17
            "ben: Joker: Beefmaker, ALL IN",
            "ben: weiter",  # Freiwurf 5
            "ben: weiter",  # 1: robbery offered
            "ben: weiter",  # refused: a victim must be named first
            "ben: raube anna",  # anna 16, ben 7
            "ben: weiter mit Joker Beefmaker",  # 3 3 2 → +12
            "ben: raube cleo",  # the Jungfrau cleo falls to -6
            "ben: weiter mit Joker ALL IN",  # 2 → doubled, 38
            "ben: stopp",
            "cleo: weiter",  # Freiwurf 2 from -6
            "cleo: weiter",  # 1: robbery offered
            "cleo: raube ben",
            "cleo: weiter",  # 6: Zombie
            "dora: Joker: Rattenlord",
            "dora: weiter",  # Freiwurf 3
            "dora: weiter mit Joker Rattenlord",  # 2: the rat holds
            "dora: weiter",  # second die 5: +18
            "dora: weiter",  # 4 → 25
            "mod: /close",  # dora's running Spiel ends as stopp
            "mod: /export json",
        ],
    ),
)

# Kälteschutz, an Anaconda fight won, a Monokel repeated, Fumo doubling, the valve catching a 6, a
# Beefmaker that makes its player a Keuler, and a close while a robbery victim is still to be named.
KEULER = Script(
    name="keuler",
    players=("anna", "ben", "cleo", "dora"),
    dice=(2, 4, 3, 6, 1, 2, 4, 5, 4, 5, 3, 2, 3, 6, 3, 5, 5, 1, 1),
    lines=_numbered(
        "keuler",
        [
            "mod: /tournament Wintercup",
            "mod: /open verflixte6",
            "anna: /join",
            "ben: /join",
            "cleo: /join",
            "dora: /join",
            "anna: Joker: Anaconda, Monokel, Kälteschutz",
            "anna: weiter",  # Freiwurf 2
            "anna: weiter mit Joker Kälteschutz",  # 4 → +4
            "anna: weiter mit Joker Anaconda",  # attack 3
            "anna: stopp",  # refused: fight or decline first
            "anna: kämpfen",  # 6 → +18
            "anna: weiter mit Joker Monokel",  # 1, 2
            "anna: wiederholen",  # 4, 5 → +9
            "anna: stopp",  # 33
            "ben: weiter",  # Freiwurf 4
            "ben: stopp",  # Prinzessin 4
            "cleo: Joker: Fumo, Sicherheitsventil",
            "cleo: weiter",  # Freiwurf 5
            "cleo: weiter mit Joker Fumo",  # 3 doubled
            "cleo: weiter",  # 2 doubled → 15
            "cleo: weiter mit Joker Sicherheitsventil",  # valve at 15, throw 3 → 18
            "cleo: weiter",  # 6 caught by the valve at 15
            "dora: Joker: Beefmaker",
            "dora: weiter",  # Freiwurf 3
            "dora: weiter mit Joker Beefmaker",  # 5 5 1 → +12
            "dora: raube ben",  # ben 4 → -2: dora is a Keuler (+5)
            "dora: weiter",  # 1: robbery offered
            "mod: /close",  # the pending robbery defaults to none
            "anna: /standings",
        ],
    ),
)

# Killer (French, five dice): sign-up, a start, keeping dice, an attack that keeps rolling, a dying
# player's suicide attack and the winner — the game ends by itself, so the close is refused.
KILLER = Script(
    name="killer",
    players=("anna", "ben"),
    dice=(
        *(6, 6, 5, 5, 4, 2, 2, 1, 1, 1, 2, 2, 1, 1, 1, 4, 4, 1, 2, 3, 4, 5, 6, 1, 2),
        *(5, 6, 6, 4, 4, 1, 2, 3, 4, 5, 2, 3, 4, 5),
    ),
    lines=_numbered(
        "killer",
        [
            "mod: /open killer dice=5",
            "anna: /join",
            "ben: /join",
            "anna: /start",  # refused: moderators start
            "mod: /start",
            "anna: garde tout",
            "ben: garde tout",
            "anna: garde tout",
            "ben: attaque anna",  # refused: anna is to act
            "anna: attaque ben",
            "ben: garde tout",
            "ben: attaque anna",
            "mod: /close",  # refused: the game already ended
        ],
    ),
)

SCRIPTS: dict[str, Script] = {script.name: script for script in (ROBBERY, KEULER, KILLER)}
