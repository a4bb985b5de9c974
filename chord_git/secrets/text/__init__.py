"""How the scanners read a text: span types, normalisation, word positions, values, repeated runs."""
