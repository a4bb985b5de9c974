"""Outside corpora for the secret scanner: public rule sets' examples, labelled once by shape.

- ``labeller``: credential / placeholder / identifier from a value's shape and the rule's name;
- ``classes``: which class of credential an example belongs to (vendor prefix, keyword and
  value, URL credentials, private key, connection string, JWT, hex or base64 without prefix)
  and the form around its value (assignment, markup element, URL, bare, keyword nearby);
- ``snapshot``: reads a fetched repository (a bare git directory or a checkout);
- ``kingfisher``: the ``examples`` of Kingfisher's rule files;
- ``trufflehog``: the ``input``/``want`` cases of TruffleHog's ``Test…_Pattern`` functions;
- ``split``: the dev / held-out split by rule, its manifest and hash.

The stored labels (``labels-*.jsonl``) hold a rule, an index, the example's sha256 and its
label, never the example's text; the bench reads the text from the snapshot it is given.
"""
