# Test support: type command lines plus TAB into an interactive zsh (zpty) and record the edited
# buffers, one "BUF:<line>" per input. Usage: zsh -f zsh_complete.zsh FPATH_DIR OUT LINE...
zmodload zsh/zpty || exit 3
fdir=$1 out=$2; shift 2
: > $out
zpty -b z zsh -f -i
zpty -w z "PS1=''; RPS1=''; unsetopt beep; fpath=($fdir \$fpath); autoload -Uz compinit; compinit -u -d $fdir/.zcompdump"
zpty -w z "zstyle ':completion:*' menu no; setopt no_auto_menu no_list_ambiguous"
zpty -w z "dump() { print -r -- \"BUF:\$BUFFER\" >> $out; BUFFER=''; }; zle -N dump; bindkey '^T' dump"
n=0
for line in "$@"; do
  zpty -w -n z "$line"$'\t'$'\x14'
  (( n++ ))
  for i in {1..200}; do (( $(wc -l < $out) >= n )) && break; sleep 0.05; done
done
zpty -d z
