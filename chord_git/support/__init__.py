"""Small helpers the rooms share and that know nothing of the product: data classes and regular
expressions built on first use (start-up time), and the one YAML adapter."""
