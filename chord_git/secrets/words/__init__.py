"""What the scanners look for: the vendor token table, the prose vocabulary, the key names."""
