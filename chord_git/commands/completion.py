"""``git memory completion bash|zsh|fish``: a completion script generated from the parser.

The parser is walked into a small tree (commands, options, positionals) and rendered for each
shell, so every command and option, including ones added later, completes without edits here.
Each script serves both spellings: ``git-memory``/``chord-git`` directly, and ``git memory``
through git's own completion (bash ``_git_memory``, zsh ``_git-memory``, fish delegates to
``git-memory`` by itself).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from chord_git import __version__
from chord_git.support.dataclass_lazy import dataclass
from chord_git.ui import Output

FILES = "@files"
DIRS = "@dirs"
IDS = "@ids:"  # + kinds (``promotion,entry``): listed by ``git-memory __ids KINDS`` at completion time


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    help: str
    metavar: str
    takes_value: bool
    values: tuple[str, ...]  # choices, or (FILES,) / (DIRS,), or () for free text
    repeatable: bool


@dataclass(frozen=True)
class Positional:
    name: str
    help: str
    values: tuple[str, ...]
    many: bool
    optional: bool


@dataclass(frozen=True)
class Node:
    path: tuple[str, ...]  # () for ``git memory`` itself
    help: str
    options: tuple[Option, ...]
    positionals: tuple[Positional, ...]
    commands: tuple[Node, ...]

    def walk(self) -> list[Node]:
        return [self, *(node for child in self.commands for node in child.walk())]


def _values(action: argparse.Action) -> tuple[str, ...]:
    kinds = getattr(action, "id_kinds", None)
    if kinds:
        return (IDS + str(kinds),)
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        return tuple(str(choice) for choice in action.choices)
    metavar = str(action.metavar or "").upper()
    if metavar == "DIR":
        return (DIRS,)
    if action.type is Path or metavar in ("FILE", "PATH"):
        return (FILES,)
    return ()


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help text as ``--help`` shows it (``%%`` and ``%(default)s`` expanded)."""
    if not action.help:
        return ""
    return str(parser._get_formatter()._expand_help(action))


def tree(parser: argparse.ArgumentParser, path: tuple[str, ...] = (), help_text: str = "") -> Node:
    options: list[Option] = []
    positionals: list[Positional] = []
    commands: list[Node] = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: _help(parser, choice) for choice in action._choices_actions}
            for name, child in action.choices.items():
                commands.append(tree(child, (*path, name), helps.get(name, "")))
        elif action.option_strings:
            metavar = str(action.metavar or action.dest).lower()
            options.append(Option(tuple(action.option_strings), _help(parser, action), metavar, action.nargs != 0,
                                  _values(action), isinstance(action, argparse._AppendAction)))
        else:
            positionals.append(Positional(str(action.metavar or action.dest), _help(parser, action), _values(action),
                                          action.nargs in ("*", "+"), action.nargs in ("*", "?")))
    return Node(path, help_text, tuple(options), tuple(positionals), tuple(commands))


def script(parser: argparse.ArgumentParser, shell: str, out: Output) -> int:
    root = tree(parser, help_text=parser.description or "")
    render = {"bash": bash, "zsh": zsh, "fish": fish}[shell]
    out.write(render(root))
    return 0


# ------------------------------------------------------------------------------------- bash
def _bash_word(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def bash(root: Node) -> str:
    nodes, values = [], []
    for node in root.walk():
        key = " ".join(node.path)
        commands = " ".join(child.path[-1] for child in node.commands)
        flags = " ".join(flag for option in node.options for flag in option.flags)
        valued = " ".join(flag for option in node.options if option.takes_value for flag in option.flags)
        nodes.append(f"    {_bash_word(key)}) _cgm_commands={_bash_word(commands)} _cgm_options={_bash_word(flags)} "
                     f"_cgm_valued={_bash_word(valued)} ;;")
        for option in node.options:
            for flag in option.flags:
                if option.values:
                    values.append(f"    {_bash_word(key + '|' + flag)}) _cgm_values={_bash_word(' '.join(option.values))} ;;")
        if not node.commands:
            # By position: ``queue retry <TAB>`` completes job ids, ``queue <TAB>`` the actions.
            for index, positional in enumerate(node.positionals):
                if positional.values:
                    # A positional taking many words takes every position from its own on.
                    pattern = _bash_word(f"{key}|#") + "*" if positional.many else _bash_word(f"{key}|#{index}")
                    values.append(f"    {pattern}) _cgm_values={_bash_word(' '.join(positional.values))} ;;")
    return f"""\
# bash completion for git memory (chord-git {__version__}), generated by `git memory completion bash`.
# Load it from ~/.bashrc with:  eval "$(git memory completion bash)"
# or save it as ~/.local/share/bash-completion/completions/git-memory
# It completes `git-memory`, `chord-git` and, through git's own completion, `git memory`.

_chord_git_memory_node() {{
    case "$1" in
{chr(10).join(nodes)}
    *) _cgm_commands='' _cgm_options='' _cgm_valued='' ;;
    esac
}}

_chord_git_memory_values() {{
    _cgm_values=''
    case "$1|$2" in
{chr(10).join(values)}
    esac
}}

_chord_git_memory() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="" start=1 i word path="" expect="" option="" npos=0
    local _cgm_commands _cgm_options _cgm_valued _cgm_values
    ((COMP_CWORD > 0)) && prev="${{COMP_WORDS[COMP_CWORD - 1]}}"
    if [[ "${{COMP_WORDS[0]##*/}}" == git ]]; then
        start=0
        for ((i = 1; i < COMP_CWORD; i++)); do
            if [[ "${{COMP_WORDS[i]}}" == memory ]]; then start=$((i + 1)); break; fi
        done
        ((start)) || return 0
    fi
    _chord_git_memory_node ""
    for ((i = start; i < COMP_CWORD; i++)); do
        word="${{COMP_WORDS[i]}}"
        if [[ "$word" == "=" ]]; then continue; fi
        if [[ -n "$expect" ]]; then expect=""; continue; fi
        if [[ "$word" == -* ]]; then
            if [[ "$word" != *=* && " $_cgm_valued " == *" $word "* ]]; then expect="$word"; fi
            continue
        fi
        if [[ " $_cgm_commands " == *" $word "* ]]; then
            path="${{path:+$path }}$word"
            _chord_git_memory_node "$path"
            npos=0
        else
            npos=$((npos + 1))
        fi
    done
    if [[ "$cur" == "=" ]]; then
        option="$prev" cur=""
    elif [[ "$prev" == "=" ]] && ((COMP_CWORD > 1)); then
        option="${{COMP_WORDS[COMP_CWORD - 2]}}"
    elif [[ -n "$expect" ]]; then
        option="$expect"
    fi
    if [[ -n "$option" ]]; then
        _chord_git_memory_values "$path" "$option"
    elif [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$_cgm_options" -- "$cur"))
        return 0
    elif [[ -n "$_cgm_commands" ]]; then
        COMPREPLY=($(compgen -W "$_cgm_commands" -- "$cur"))
        return 0
    else
        _chord_git_memory_values "$path" "#$npos"
    fi
    case "$_cgm_values" in
    @ids:*) COMPREPLY=($(compgen -W "$(git-memory __ids "${{_cgm_values#@ids:}}" 2>/dev/null)" -- "$cur")) ;;
    @files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    @dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "$_cgm_values" -- "$cur")) ;;
    esac
    return 0
}}

# git's completion calls _git_<command> for `git <command> …`; it adds no space by itself.
_git_memory() {{
    local i
    _chord_git_memory
    for i in "${{!COMPREPLY[@]}}"; do [[ -d "${{COMPREPLY[i]}}" ]] || COMPREPLY[i]+=" "; done
}}
complete -F _chord_git_memory git-memory chord-git
"""


# -------------------------------------------------------------------------------------- zsh
def _zsh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _zsh_describe(text: str) -> str:
    """Text inside ``[...]`` or after ``name:`` in an _arguments or _describe spec."""
    return " ".join(text.split()).replace("\\", "\\\\").replace(":", "\\:").replace("[", "\\[").replace("]", "\\]")


def _zsh_action(values: tuple[str, ...]) -> str:
    if values == (FILES,):
        return "_files"
    if values == (DIRS,):
        return "_directories"
    if values and values[0].startswith(IDS):
        return "{_git_memory_ids " + values[0][len(IDS):] + "}"
    if values:
        return "(" + " ".join(values) + ")"
    return " "


def _zsh_function(node: Node) -> str:
    return "_git_memory__" + ("_".join(node.path).replace("-", "_") or "root")


def _zsh_node(node: Node) -> str:
    specs: list[str] = []
    for option in node.options:
        description = _zsh_describe(option.help)
        if option.takes_value:
            argument = f":{_zsh_describe(option.metavar)}:{_zsh_action(option.values)}"
        else:
            argument = ""
        prefix = "*" if option.repeatable else ""
        for flag in option.flags:
            suffix = ("=" if flag.startswith("--") else "+") if option.takes_value else ""
            specs.append(_zsh_quote(f"{prefix}{flag}{suffix}[{description}]{argument}"))
    name = _zsh_function(node)
    if node.commands:
        specs += ["': :->command'", "'*:: :->argument'"]
        # _describe splits name from description at the first colon: only names need escaping.
        commands = "\n".join(f"        {_zsh_quote(child.path[-1].replace(':', chr(92) + ':') + ':' + ' '.join(child.help.split()))}"
                             for child in node.commands)
        cases = "\n".join(f"        {child.path[-1]}) {_zsh_function(child)} ;;" for child in node.commands)
        where = " ".join(("git memory", *node.path))
        joined = " \\\n        ".join(specs)
        body = f"""\
    local curcontext="$curcontext" state state_descr line
    typeset -A opt_args
    _arguments -C -s \\
        {joined} && return
    case $state in
    command)
        local -a commands
        commands=(
{commands}
        )
        _describe -t commands {_zsh_quote(where + ' command')} commands ;;
    argument)
        case $words[1] in
{cases}
        esac ;;
    esac"""
    else:
        for positional in node.positionals:
            lead = "*" if positional.many else (":" if positional.optional else "")
            specs.append(_zsh_quote(f"{lead}:{_zsh_describe(positional.name)}:{_zsh_action(positional.values)}"))
        body = "    _arguments -s \\\n        " + " \\\n        ".join(specs)
    return f"{name}() {{\n{body}\n}}\n"


def zsh(root: Node) -> str:
    functions = "\n".join(_zsh_node(node) for node in root.walk())
    return f"""\
#compdef git-memory chord-git
# zsh completion for git memory (chord-git {__version__}), generated by `git memory completion zsh`.
# Save it as _git-memory in a directory on $fpath (before compinit runs), e.g.
#   git memory completion zsh > "${{fpath[1]}}/_git-memory"
# or load it after compinit with:  source <(git memory completion zsh)
# `git memory …` completes too: zsh's git completion calls _git-memory.

_git_memory_ids() {{
    local -a ids
    ids=(${{(f)"$(git-memory __ids $1 2>/dev/null)"}})
    compadd -a ids
}}

{functions}
if [[ "$funcstack[1]" == _git-memory ]]; then
    _git_memory__root "$@"
else
    _git-memory() {{ _git_memory__root "$@"; }}
    compdef _git_memory__root git-memory chord-git
fi
"""


# ------------------------------------------------------------------------------------- fish
def _fish_quote(text: str) -> str:
    return "'" + " ".join(text.split()).replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish(root: Node) -> str:
    commands, valued, lines = [], [], []
    for node in root.walk():
        key = " ".join(node.path)
        condition = f"-n {_fish_quote('__chord_git_memory_at ' + _fish_quote(key))}"
        for child in node.commands:
            commands.append(_fish_quote(f"{key}|{child.path[-1]}"))
            lines.append(f"complete -c git-memory {condition} -a {_fish_quote(child.path[-1])} -d {_fish_quote(child.help)}")
        for option in node.options:
            spec = []
            for flag in option.flags:
                if flag.startswith("--"):
                    spec.append(f"-l {flag[2:]}")
                else:
                    spec.append(f"-s {flag[1:]}")
                if option.takes_value:
                    valued.append(_fish_quote(f"{key}|{flag}"))
            if option.values == (FILES,):
                spec.append("-r -F")
            elif option.values == (DIRS,):
                spec.append("-x -a '(__fish_complete_directories)'")
            elif option.values:
                spec.append(f"-x -a {_fish_quote(' '.join(option.values))}")
            elif option.takes_value:
                spec.append("-x")
            lines.append(f"complete -c git-memory {condition} {' '.join(spec)} -d {_fish_quote(option.help)}")
        if not node.commands:
            for positional in node.positionals:
                if positional.values == (FILES,):
                    lines.append(f"complete -c git-memory {condition} -F")
                elif positional.values == (DIRS,):
                    lines.append(f"complete -c git-memory {condition} -a '(__fish_complete_directories)'")
                elif positional.values[:1] and positional.values[0].startswith(IDS):
                    kinds = positional.values[0][len(IDS):]
                    lines.append(f"complete -c git-memory {condition} -a {_fish_quote(f'(git-memory __ids {kinds} 2>/dev/null)')}")
                elif positional.values:
                    lines.append(f"complete -c git-memory {condition} -a {_fish_quote(' '.join(positional.values))}")
    return f"""\
# fish completion for git memory (chord-git {__version__}), generated by `git memory completion fish`.
# Load it from ~/.config/fish/config.fish with:  git memory completion fish | source
# (that also completes `git memory …`), or save it as ~/.config/fish/completions/git-memory.fish.

set -g __chord_git_memory_commands {' '.join(commands)}
set -g __chord_git_memory_valued {' '.join(valued)}

function __chord_git_memory_path --description 'the git memory command path being completed'
    set -l tokens (commandline -opc)
    set -l start 2
    if test (string replace -r '.*/' '' -- $tokens[1]) = git
        set -l at (contains -i -- memory $tokens); or return 1
        set start (math $at + 1)
    end
    set -l path ''
    set -l skip 0
    for token in $tokens[$start..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $token
            if not string match -q -- '*=*' $token; and contains -- "$path|$token" $__chord_git_memory_valued
                set skip 1
            end
        else if contains -- "$path|$token" $__chord_git_memory_commands
            set path (string trim -- "$path $token")
        end
    end
    echo $path
end

function __chord_git_memory_at --argument-names wanted
    set -l path (__chord_git_memory_path)
    test "$path" = "$wanted"
end

function __chord_git_memory_via_git --description 'complete `git memory …` as `git-memory …`'
    set -l tokens (commandline -opc)
    complete -C "git-memory $tokens[3..-1] "(commandline -ct)
end

complete -c git-memory -f
{chr(10).join(lines)}
complete -c chord-git -w git-memory
# For `git memory …` where fish's git completion does not hand git-* commands over itself.
complete -c git -f -n 'set -l t (commandline -opc); test (count $t) -ge 2; and test "$t[2]" = memory' -a '(__chord_git_memory_via_git)'
"""
