"""Whether a value is a credential, and whether the project allows it (pragmas, baseline, ignore file)."""
