"""Fairness figures in words people read, in a channel's language (the web page and ``croupier stats``)."""

from __future__ import annotations

from typing import Any

from bot import texts
from bot.service.requests import Fairness, p_text, verdict


def number(value: float, lang: str, digits: int = 2) -> str:
    """A decimal as the language writes it: 3.62 in English, 3,62 in German and French."""
    return texts.decimal(lang, value, digits)


def verdict_words(p: float, enough: bool, lang: str) -> str:
    """ "nothing unusual (p = 0.42)", "unusual, p = 0.003" or "too few dice to tell"."""
    shown = p_text(p, lambda value, digits: texts.decimal(lang, value, digits))
    return texts.render(f"web.{verdict(p, enough)}", {"p": shown}, lang)


def fairness_text(tournament: str, lang: str, fairness: Fairness) -> str:
    def t(key: str, **facts: Any) -> str:
        return texts.render(f"web.{key}", facts, lang)

    faces = fairness.faces
    chi2 = t("chi2_line", n=faces.n, chi2=number(faces.chi2, lang))
    lines = [
        f"{t('fairness')} — {tournament}",
        f"{chi2} — {verdict_words(faces.p, faces.enough, lang)}",
        f"{t('col_faces')}: {' · '.join(str(count) for count in faces.counts)}",
    ]
    if fairness.players:
        lines += ["", t("luck_title")]
    for player in fairness.players:
        luck = player.luck
        mean = t("mean_se", mean=number(luck.mean, lang), se=number(luck.se, lang))
        lines.append(
            f"{player.name}: {t('dice_count', count=luck.n)}, {t('col_mean')} {mean} — "
            f"{verdict_words(luck.p, luck.enough, lang)}; {t('col_faces')}: "
            f"{' · '.join(str(count) for count in player.faces.counts)} — "
            f"{verdict_words(player.faces.p, player.faces.enough, lang)}"
        )
    return "\n".join(lines)


def fairness_json(tournament: str, lang: str, fairness: Fairness) -> dict[str, Any]:
    faces = fairness.faces
    return {
        "tournament": tournament,
        "language": lang,
        "dice": faces.n,
        "faces": {str(face + 1): count for face, count in enumerate(faces.counts)},
        "chi2": round(faces.chi2, 6),
        "p": round(faces.p, 6),
        "verdict": verdict_words(faces.p, faces.enough, lang),
        "players": [
            {
                "name": player.name,
                "dice": player.luck.n,
                "faces": {str(face + 1): count for face, count in enumerate(player.faces.counts)},
                "chi2": round(player.faces.chi2, 6),
                "chi2_p": round(player.faces.p, 6),
                "chi2_verdict": verdict_words(player.faces.p, player.faces.enough, lang),
                "mean": round(player.luck.mean, 6),
                "se": round(player.luck.se, 6),
                "z": round(player.luck.z, 6),
                "luck_p": round(player.luck.p, 6),
                "luck_verdict": verdict_words(player.luck.p, player.luck.enough, lang),
            }
            for player in fairness.players
        ],
    }
