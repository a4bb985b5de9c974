"""A user turn split into the user's own words and what the user quoted or pasted (R19).

Only the user's own words can ground a user-sourced claim: a rule inside a pasted CI log, a
quoted e-mail or a code block is material the user showed, not something the user said. Pasted
or quoted is:

* a fenced block (```` ``` ```` or ``~~~``), up to its closing fence or the end of the turn;
* a line quoted with ``>``;
* a log-shaped line: a timestamp or log level first, a CI runner's annotation, a stack frame, a
  shell prompt, compiler output (``file:line:col:``);
* what follows a line that introduces pasted material ("here is the log:", "the email says:",
  "日志如下：", "Ausgabe:") up to a blank line, and on through paragraphs that are log-shaped;
* a passage in quotation marks after such an introduction inside a line ("测试同学发来的邮件：“…”").

Pure functions over text; the line tests are linear.
"""
from __future__ import annotations

import re

from chord_git.support.dataclass_lazy import dataclass
from chord_git.support.regex_lazy import lazy

_FENCE = lazy(r"^\s{0,3}(```|~~~)")
_QUOTE = lazy(r"^\s{0,3}>")
_LOG_LINE = lazy(
    r"^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|\[?\d{1,2}:\d{2}:\d{2}"
    r"|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE|SEVERE)\]?[:\s]"
    r"|##\[(?:error|warning|group|endgroup|debug|section)\]|::(?:error|warning|notice|debug|group|endgroup)"
    r"|at\s+[\w$.<>]+\(|File\s+\".*\",\s+line\s+\d+|Traceback\s+\(most|npm\s+(?:ERR!|WARN|error)"
    r"|E\s{2,}\S|\d+\s*\|\s|\$\s+\S|[\w./-]+:\d+(?::\d+)?:\s|(?:FAILED|PASSED|ERROR)\s+\S+::"
    r"|Step\s+\d+/\d+|#\d+\s+\[)")
# A line that introduces pasted material: short, ends in a colon, and names what follows.
_INTRO = lazy(
    r"(?:\b(?:log|logs|output|error|errors|traceback|stack\s*trace|e-?mail|mail|message|messages|chat|slack|thread"
    r"|transcript|ticket|comment|says|said|wrote|writes|pasted?|paste|below|following|reads|salida|registro|correo"
    r"|mensaje|ausgabe|protokoll|fehlermeldung|nachricht|sortie|journal|courriel|erreur|dice|dijo|schreibt|[ée]crit)\b"
    r"|日志|输出|报错|错误信息|邮件|消息|聊天记录|如下|下面是|以下是|贴一下|原文|ログ|出力|エラー|メール|メッセージ|以下)"
    r"[^:：\n]{0,60}[:：]\s*$",
    re.IGNORECASE)
# An introduction inside a line: the rest of the line after it is what was pasted.
_INLINE_INTRO = lazy(
    r"(?:\bhere(?:'s|\s+is|\s+are)\s+(?:the\s+)?(?:log|logs|output|error|message|email|mail|chat|thread)"
    r"|\bthe\s+(?:log|logs|output|error|email|mail|message|ticket|comment|ci|build)\s+(?:says|said|reads|shows)"
    r"|日志(?:里)?(?:写着|说)|输出(?:是|为)|邮件(?:里)?(?:写着|说))[^:：\n]{0,40}[:：]",
    re.IGNORECASE)
_INTRO_MAX = 120
# An introduction, then a passage in quotation marks: the passage is what was shown, the words
# around it are the user's ("这是测试同学发来的邮件：“…”你觉得合理吗？", "the ticket says: "…" — agreed?").
_NOUNS = _INTRO.pattern[:_INTRO.pattern.index("[^:：")]
_QUOTED_AFTER_INTRO = lazy(_NOUNS + r"[^:：\n]{0,60}[:：]\s*([\"“「『«„‘'])", re.IGNORECASE)
_CLOSERS = {'"': '"', "“": "”", "「": "」", "『": "』", "«": "»", "„": "“", "‘": "’", "'": "'"}


@dataclass(frozen=True)
class Split:
    own: str  # the user's own words; pasted or quoted lines are blank lines here
    shown: str  # what the user pasted or quoted (code, logs, mails, `>` quotes)


def is_log_line(line: str) -> bool:
    return bool(line.strip()) and _LOG_LINE.match(line) is not None


def split(text: str) -> Split:
    """The turn's own words and its pasted or quoted material (see the module doc)."""
    own: list[str] = []
    shown: list[str] = []
    fence: str | None = None
    pasted = False  # inside material an introduction announced
    for line in text.split("\n"):
        opener = _FENCE.match(line)
        if fence is not None:
            shown.append(line)
            own.append("")
            if opener and opener.group(1) == fence:
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            shown.append(line)
            own.append("")
            continue
        if not line.strip():
            pasted = False
            own.append("")
            continue
        if pasted:
            shown.append(line)
            own.append("")
            continue
        pasted = False
        if _QUOTE.match(line) or is_log_line(line):
            shown.append(line)
            own.append("")
            if is_log_line(line):
                pasted = True  # the lines after a log line are the same log until a blank line
            continue
        quoted = _QUOTED_AFTER_INTRO.search(line)
        if quoted is not None:
            close = line.find(_CLOSERS[quoted.group(1)], quoted.end())
            stop = len(line) if close < 0 else close + 1
            own.append(line[:quoted.start(1)] + " " + line[stop:])
            shown.append(line[quoted.start(1):stop])
            continue
        inline = _INLINE_INTRO.search(line)
        if inline is not None:
            own.append(line[:inline.end()])
            shown.append(line[inline.end():])
            continue
        own.append(line)
        if len(line) <= _INTRO_MAX and _INTRO.search(line):
            pasted = True
    return Split("\n".join(own), "\n".join(shown))

