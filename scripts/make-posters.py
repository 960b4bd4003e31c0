#!/usr/bin/env python3
"""Generate one 16:9 SVG poster per catalogue item from Config/content.json.

Usage: scripts/make-posters.py [CONTENT_JSON] [PUBLIC_DIR]
Each poster is written to the item's `image` path under PUBLIC_DIR (default:
Public/; CONTENT_JSON defaults to Config/content.json). Deterministic: the
same id always gets the same colours and motif, so re-running only changes posters
whose title or kind changed.
"""
import hashlib
import json
import random
import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
W, H = 320, 180
FONT = "system-ui,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif"

# Hand-picked gradient pairs: moody for films, bright for clips, night tones for live.
PALETTES = {
    "long": [("#0f2027", "#2c5364"), ("#3a1c71", "#d76d77"), ("#1f1c2c", "#928dab"),
             ("#16222a", "#3a6073"), ("#42275a", "#734b6d"), ("#0b486b", "#f56217"),
             ("#603813", "#b29f94"), ("#1d4350", "#a43931"), ("#000428", "#004e92"),
             ("#4b134f", "#c94b4b"), ("#134e5e", "#71b280"), ("#2b1055", "#7597de")],
    "short": [("#ff7e5f", "#feb47b"), ("#43cea2", "#185a9d"), ("#f7971e", "#c2410c"),
              ("#ee0979", "#ff6a00"), ("#00b09b", "#5b8c2a"), ("#8e2de2", "#4a00e0"),
              ("#fc5c7d", "#6a82fb"), ("#11998e", "#2f9e5b"), ("#f953c6", "#b91d73"),
              ("#3494e6", "#ec6ead")],
    "live": [("#141e30", "#243b55"), ("#200122", "#6f0000"), ("#0f0c29", "#302b63"),
             ("#1a2a6c", "#b21f1f"), ("#2c3e50", "#4ca1af"), ("#232526", "#6b1d1d")],
}
ACCENTS = ["#ffd166", "#ef476f", "#06d6a0", "#8ecae6", "#ffffff", "#f4a261", "#c77dff"]


def motif(rng, accent):
    """One background figure, drawn translucent over the gradient."""
    kind = rng.randrange(6)
    op = f'fill="{accent}" fill-opacity="{rng.choice([".18", ".24", ".3"])}"'
    if kind == 0:  # low sun over a horizon
        cx, r = rng.randint(170, 290), rng.randint(40, 70)
        return f'<circle cx="{cx}" cy="{rng.randint(60, 100)}" r="{r}" {op}/>' \
               f'<rect y="118" width="{W}" height="2" fill="{accent}" fill-opacity=".35"/>'
    if kind == 1:  # two mountain ridges
        a, b = rng.randint(60, 110), rng.randint(170, 260)
        return f'<path d="M0 140L{a} {rng.randint(50, 80)}L{a + 70} 120L{b} {rng.randint(40, 70)}L{W} 130V{H}H0z" {op}/>' \
               f'<path d="M0 160L{a + 40} 110L{b - 20} 150L{b + 40} 100L{W} 150V{H}H0z" {op}/>'
    if kind == 2:  # rolling waves
        y = rng.randint(70, 100)
        return "".join(f'<path d="M0 {y + i * 22}q40 -{14 + i * 4} 80 0t80 0t80 0t80 0V{H}H0z" {op}/>'
                       for i in range(3))
    if kind == 3:  # concentric rings
        cx, cy = rng.randint(200, 280), rng.randint(40, 110)
        return "".join(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{accent}" '
                       f'stroke-opacity=".28" stroke-width="{3 + i}"/>' for i, r in enumerate((22, 44, 70, 100)))
    if kind == 4:  # diagonal light bands
        x = rng.randint(90, 200)
        return "".join(f'<rect x="{x + i * 46}" y="-60" width="{18 + i * 8}" height="320" '
                       f'transform="rotate(28 160 90)" {op}/>' for i in range(3))
    # equaliser bars
    bars = [rng.randint(20, 110) for _ in range(11)]
    return "".join(f'<rect x="{150 + i * 14}" y="{140 - h}" width="8" height="{h}" rx="3" {op}/>'
                   for i, h in enumerate(bars))


def typeset(text):
    """Curly quotes and apostrophes, as a printed poster would have them."""
    return re.sub(r'"([^"]*)"', "\u201c\\1\u201d", text).replace("'", "\u2019")


def split_title(title):
    """Return (kicker, main): series episodes and "Label: Name" titles get a small line above."""
    m = re.match(r"^(.+?), (S\d+ E\d+): (.+)$", title)
    if m:
        return f"{m.group(2)} · {m.group(3)}", m.group(1)
    label, sep, rest = title.partition(": ")
    if sep and len(label) <= 22 and rest:
        return label.upper(), rest
    return None, title


def wrap(text, size, width=288):
    """Greedy word wrap by estimated glyph width (bold sans, about 0.64 em per character)."""
    per_line = max(1, int(width / (size * 0.64)))
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if len(candidate) <= per_line or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    return lines + [line]


def fit(text):
    for size in (24, 21, 18, 15):
        lines = wrap(text, size)
        if len(lines) <= 2 and all(len(l) * size * 0.64 <= 288 for l in lines):
            return size, lines
    return 14, wrap(text, 14)[:3]


def badge(item):
    # A stream is live only between its start and its end, which artwork cannot know: the page
    # draws the live badge over the posters of streams on the air, so theirs carry none.
    if item["kind"] == "live":
        return ""
    label = "CLIP" if item["kind"] == "short" else ("SERIES" if re.search(r"S\d+ E\d+", item["title"]) else "FILM")
    width = 14 + len(label) * 8
    return (f'<rect x="12" y="12" width="{width}" height="20" rx="4" fill="#000" fill-opacity=".45"/>'
            f'<text x="19" y="26.5" font-size="11" font-weight="700" fill="#fff" letter-spacing="1">{label}</text>')


def poster(item):
    rng = random.Random(int(hashlib.sha256(item["id"].encode()).hexdigest()[:12], 16))
    c1, c2 = rng.choice(PALETTES[item["kind"]])
    angle = rng.choice([(0, 0, 1, 1), (1, 0, 0, 1), (0, 0, 1, 0)])
    kicker, main = split_title(typeset(item["title"]))
    size, lines = fit(main)
    y = 162 - (len(lines) - 1) * size * 1.12
    text = "".join(f'<tspan x="16" y="{y + i * size * 1.12:.0f}">{escape(l)}</tspan>' for i, l in enumerate(lines))
    kick = ""
    if kicker:
        kick = (f'<text x="16" y="{y - size - 4:.0f}" font-size="11" font-weight="600" fill="#fff" '
                f'fill-opacity=".85" letter-spacing=".5">{escape(kicker)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
            f'font-family="{escape(FONT, {chr(34): "&quot;"})}">'
            f'<defs><linearGradient id="g" x1="{angle[0]}" y1="{angle[1]}" x2="{angle[2]}" y2="{angle[3]}">'
            f'<stop offset="0" stop-color="{c1}"/><stop offset="1" stop-color="{c2}"/></linearGradient>'
            '<linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset=".35" stop-opacity="0"/>'
            '<stop offset="1" stop-opacity=".75"/></linearGradient></defs>'
            f'<rect width="{W}" height="{H}" fill="url(#g)"/>{motif(rng, rng.choice(ACCENTS))}'
            f'<rect width="{W}" height="{H}" fill="url(#s)"/>{badge(item)}{kick}'
            f'<text font-size="{size}" font-weight="800" fill="#fff">{text}</text></svg>\n')


def main():
    content = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Config/content.json"
    public = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "Public"
    items = json.loads(content.read_text(encoding="utf-8"))["items"]
    for item in items:
        if item["image"].startswith("/") or ".." in item["image"].split("/"):
            sys.exit(f"{item['id']}: image path {item['image']!r} leaves {public}")
        svg = poster(item)
        if len(svg.encode()) >= 2048:
            sys.exit(f"{item['id']}: poster is {len(svg.encode())} bytes, over the 2 KB budget")
        target = public / item["image"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(svg, encoding="utf-8")
    print(f"wrote {len(items)} posters under {public}")


if __name__ == "__main__":
    main()
