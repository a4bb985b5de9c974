# Generated from api/spec.yaml by `make gen`; do not edit.
