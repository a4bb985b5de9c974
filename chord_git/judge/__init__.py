"""One judge for memory, whichever way it arrives (extraction, ``propose_memory``, a pull request).

``judge.core.judge(candidate, context)`` returns every finding of every check and the decision
they fold into; ``rules/`` holds the classes of text memory refuses as frames over clause
structure, with their word tables and examples as data.
"""
