# Two commands on a fresh machine: `make demo` (install, simulate, write a report)
# and `make test` (install, run the tests). Both install what they need.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install test test-fast wheel-check browser demo bench reports reports-macao robustness-macao reports-cargo-empire robustness-cargo-empire reports-shipwrights robustness-shipwrights ladder clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# Two test processes (pytest-xdist; a file's tests stay together, so module
# fixtures are built once); the session first warms numba's cache (tests/warmup.py).
# The kernels compile at LLVM level 1 (TEST_OPT): a third less compile time, games
# a few per cent slower and bit-identical; they get cache folders of their own.
TEST_JOBS ?= 2
TEST_OPT ?= 1

test: $(STAMP) browser
	NUMBA_OPT=$(TEST_OPT) $(PY) -m pytest tests -n $(TEST_JOBS) --dist loadfile

# The wheel installs every game: built from the tracked files, installed with
# --no-deps into a folder of its own, then `cargo-sim rules` and a 100-game
# `cargo-sim simulate` of every registered game from outside the source tree, with
# this environment's interpreter (.ci/wheel_check.py). Same NUMBA_OPT as the tests:
# the installed copy reuses their compiled kernels (the cache is keyed by source).
wheel-check: $(STAMP)
	NUMBA_OPT=$(TEST_OPT) $(PY) .ci/wheel_check.py

# Headless Chromium for the replay pages' browser tests (tests/browser.py: Cargo Noir's
# tests/games/cargo_noir/test_replay.py, Macao's tests/games/macao/test_macao_replay.py,
# Shipwrights' and Cargo Empire's test_ship_replay.py, test_ce_replay.py,
# the core's tests/core/test_replay.py):
# installed from the system's packages when missing and apt-get is there (as root,
# or through sudo); otherwise those tests skip and say why.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && \
	    { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO="sudo -n"; fi; \
	      $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; } ; } || \
	  echo "make: Chromium not installed: the replay page's browser test will skip"

# The everyday loop (under a minute with a warm cache): everything not marked slow.
test-fast: $(STAMP)
	NUMBA_OPT=$(TEST_OPT) $(PY) -m pytest tests -m 'not slow' -n $(TEST_JOBS) --dist loadfile

# The demo report: all player counts, a mix of built-in bots, as many games as fit
# in the time budget (seconds of simulation; compiling the bots on first use comes
# on top, about 2-3 minutes on a fresh machine).
DEMO_BUDGET ?= 100

demo: $(STAMP)
	$(VENV)/bin/cargo-sim report --out reports/demo --seconds $(DEMO_BUDGET) --seed 1
	@echo "open reports/demo/index.html (or index.md)"

# The committed reports, regenerated with the current code and rules (each
# records its command, git commit and rules digest); about 20 min on 2 cores.
reports: $(STAMP)
	$(VENV)/bin/cargo-sim report --out reports/baseline --no-svg --seed 0 --games 25000 --events-games 2000
	$(PY) reports/balance/make_report.py

# Macao's committed report (reports/macao/): the expert in every seat at 2-4 players
# (seats exchangeable: the seat table measures the seat advantage), MACAO_GAMES games
# per count, the event log of MACAO_EVENTS of them; see docs/rules_macao.md.
MACAO_GAMES ?= 20000
MACAO_EVENTS ?= 2000

reports-macao: $(STAMP)
	$(VENV)/bin/cargo-sim report --game macao --out reports/macao --no-svg --seed 0 --games $(MACAO_GAMES) --events-games $(MACAO_EVENTS) --players 2=expert,expert --players 3=expert,expert,expert --players 4=expert,expert,expert,expert
	$(PY) reports/balance/strong_play.py --game macao --render-only

# Macao's robustness report (reports/macao_robustness/; its highlights' marks in reports/macao/):
# 473 parameters have a range, so each family of estimates made by one rule moves as one factor
# (--group: all card costs one cube less / more together, ...), the 19 other parameters alone;
# MACAO_ROBUST_GAMES games per table and variant, Morris MACAO_ROBUST_TRAJECTORIES trajectories
# at MACAO_ROBUST_MORRIS_GAMES; about 20-30 min on 2 shared cores (docs/macao_study.md,
# Robustness). Then make reports-macao puts the marks on the report's highlights.
MACAO_ROBUST_GAMES ?= 5000
MACAO_ROBUST_MORRIS_GAMES ?= 500
MACAO_ROBUST_TRAJECTORIES ?= 6
MACAO_ROBUST_GROUPS ?= --group 'card_costs=card.*.cost' --group 'tribute_coins=card.*.tribute_coins' \
  --group 'tribute_points=card.*.tribute_points' --group 'card_kinds=card.*.kind' \
  --group 'office_copies=card.*.copies' --group 'quarter_costs=quarter.*.cost' \
  --group 'port_spaces=port.*.space' --group 'port_goods=port.*.goods'

robustness-macao: $(STAMP)
	$(VENV)/bin/cargo-sim robustness --game macao --out reports/macao_robustness --games $(MACAO_ROBUST_GAMES) --morris-games $(MACAO_ROBUST_MORRIS_GAMES) --trajectories $(MACAO_ROBUST_TRAJECTORIES) --seed 1 $(MACAO_ROBUST_GROUPS)

# Cargo Empire's report (reports/cargo_empire/): the expert in every seat at 2-5 players (the
# start player is drawn at random, so the first round's order place is a clean treatment),
# CE_GAMES games per count, the event log of CE_EVENTS of them; about 4-6 min on 2 shared
# cores, 1.5 GB (docs/cargo_empire_study.md).
CE_GAMES ?= 50000
CE_EVENTS ?= 5000

reports-cargo-empire: $(STAMP)
	$(VENV)/bin/cargo-sim report --game cargo_empire --out reports/cargo_empire --no-svg --seed 0 --games $(CE_GAMES) --events-games $(CE_EVENTS) --players 2=expert,expert --players 3=expert,expert,expert --players 4=expert,expert,expert,expert --players 5=expert,expert,expert,expert,expert

# Cargo Empire's robustness report (reports/cargo_empire_robustness/): every estimate's range
# one at a time, the map family as one factor of named maps (the 12-city Europe map and
# generated maps: Game.robustness, analyses.ROBUSTNESS["factors"]), Morris over the ranges;
# CE_ROBUST_GAMES games per table and variant; about 11 min on 2 shared cores (0.8 GB). Then
# make reports-cargo-empire puts the marks on the report's highlights.
CE_ROBUST_GAMES ?= 4000
CE_ROBUST_MORRIS_GAMES ?= 500
CE_ROBUST_TRAJECTORIES ?= 4

robustness-cargo-empire: $(STAMP)
	$(VENV)/bin/cargo-sim robustness --game cargo_empire --out reports/cargo_empire_robustness --games $(CE_ROBUST_GAMES) --morris-games $(CE_ROBUST_MORRIS_GAMES) --trajectories $(CE_ROBUST_TRAJECTORIES) --seed 1

# Shipwrights' committed report (reports/shipwrights/): the expert in every seat at 2-4 players
# (the seat table measures the seat advantage), SHIP_GAMES games per count, the event log of
# SHIP_EVENTS of them; 5 min at a load of 4-5 (72 s compiling on first use), 1.8 GB
# (docs/shipwrights_study.md).
SHIP_GAMES ?= 100000
SHIP_EVENTS ?= 5000

reports-shipwrights: $(STAMP)
	$(VENV)/bin/cargo-sim report --game shipwrights --out reports/shipwrights --no-svg --seed 0 --games $(SHIP_GAMES) --events-games $(SHIP_EVENTS) --players 2=expert,expert --players 3=expert,expert,expert --players 4=expert,expert,expert,expert

# Shipwrights' robustness report (reports/shipwrights_robustness/): each family of estimates made
# by one rule moves as one factor (--group), the decisions alone; the cards' copies are left out
# (they must add up to the 128-card deck, so none can move alone or as a family), and the red flags
# group names the seven military ships (the three civil ships' range is their printed 0). SHIP_ROBUST_GAMES
# games per table and variant at 2-4 players, Morris SHIP_ROBUST_TRAJECTORIES trajectories at
# SHIP_ROBUST_MORRIS_GAMES; 6.5 min at a load of 4-5, 0.6 GB. Then make reports-shipwrights puts
# the marks on the report's highlights.
SHIP_ROBUST_GAMES ?= 2000
SHIP_ROBUST_MORRIS_GAMES ?= 400
SHIP_ROBUST_TRAJECTORIES ?= 4
SHIP_ROBUST_PARAMS ?= --param max_days --param tie_break --param military_tie
SHIP_ROBUST_GROUPS ?= --group 'ship_points=ship.*.points' --group 'ship_costs=ship.*.gold,ship.*.workers' \
  --group 'ship_craftsmen=ship.*.craftsmen' \
  --group 'ship_flags=ship.Karfi.military,ship.Karve.military,ship.Snekkja.military,ship.Busse.military,ship.Skeid.military,ship.Langskip.military,ship.Drakkar.military' \
  --group 'ship_gold_icons=ship.*.gold_icon' --group 'ship_worker_icons=ship.*.worker_icon' \
  --group 'ship_mill_icons=ship.*.mill_icon' --group 'building_costs=building.*.gold,building.*.workers' \
  --group 'building_points=building.*.arg' --group 'tool_prices=tool.*.price' \
  --group 'townsfolk_amounts=townsfolk.*.args'

robustness-shipwrights: $(STAMP)
	$(VENV)/bin/cargo-sim robustness --game shipwrights --out reports/shipwrights_robustness --seats 2,3,4 --games $(SHIP_ROBUST_GAMES) --morris-games $(SHIP_ROBUST_MORRIS_GAMES) --trajectories $(SHIP_ROBUST_TRAJECTORIES) --seed 1 $(SHIP_ROBUST_PARAMS) $(SHIP_ROBUST_GROUPS)

# The strength ladder (reports/ladder/): every built-in against ismcts at 5 budgets.
# Sequential design: rounds of LADDER_GAMES games per cell until the bot's 95% interval
# is within +-LADDER_HALF_WIDTH, at most LADDER_MAX_GAMES; a bot at most LADDER_PRUNE x
# its fair share at a budget is not placed at larger ones. Rerunning continues an
# interrupted run (docs/tournaments.md, ladder section, says how long it took).
LADDER_GAMES ?= 12
LADDER_HALF_WIDTH ?= 0.08
LADDER_MAX_GAMES ?= 72
LADDER_PRUNE ?= 0.1
LADDER_BUDGETS ?= 10,30,100,1000,10000
LADDER_NOTE ?=

ladder: $(STAMP)
	$(VENV)/bin/cargo-sim ladder --out reports/ladder --budgets $(LADDER_BUDGETS) --games $(LADDER_GAMES) --half-width $(LADDER_HALF_WIDTH) --max-games $(LADDER_MAX_GAMES) --seed 1 --prune $(LADDER_PRUNE) $(if $(LADDER_NOTE),--note "$(LADDER_NOTE)")

bench: $(STAMP)
	$(PY) -m cargo_sim.bench

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
