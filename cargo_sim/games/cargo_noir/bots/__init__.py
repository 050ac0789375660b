"""Built-in bots for Cargo Noir; each bot lives in its own module."""
