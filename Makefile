# Two commands on a fresh machine: `make demo` (install, simulate, write a report)
# and `make test` (install, run the tests). Both install what they need.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install test demo bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest tests

DEMO_GAMES ?= 20000

# TODO(report): replace the loop below with `$(VENV)/bin/cargo-sim report --out reports/demo`
# once the `report` subcommand exists (cargo_sim/cli.py has none yet; the report
# builder itself is `python -m analyses.report`).
demo: $(STAMP)
	@for n in 2 3 4 5; do \
	  players=$$(printf 'random,%.0s' $$(seq $$n)); players=$${players%,}; \
	  echo "== $$n players: $$players"; \
	  $(VENV)/bin/cargo-sim simulate --games $(DEMO_GAMES) --players $$players --seed 1 \
	    --no-progress --out reports/demo/random_$${n}p || exit $$?; \
	done
	@echo "demo tables written under reports/demo/ (games, players, run.json per player count)"

bench: $(STAMP)
	$(PY) -m cargo_sim.bench

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
