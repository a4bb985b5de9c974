"""All git access: the repository layout from the filesystem (``layout``), libgit2 through pygit2
(``libgit2``, the only pygit2 importer), the ``git`` command as a fallback (``command``) and the
change objects both produce (``changes``)."""
