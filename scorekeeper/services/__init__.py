"""Use cases: load rows → ask the engine → persist. The only code that touches both."""
