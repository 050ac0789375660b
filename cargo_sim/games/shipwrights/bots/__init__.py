"""Shipwrights' bots: the registry (``registry.REGISTRY``) and their kernels."""
