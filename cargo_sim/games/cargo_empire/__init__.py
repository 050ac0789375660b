"""Cargo Empire (Moaideas Game Design, 2024): deliveries along a rail and sea network,
posts, city upgrades and development tracks (docs/rules_cargo_empire.md)."""
