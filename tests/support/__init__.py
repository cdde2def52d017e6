"""Helpers of the test-suite (the fixtures in ``tests/conftest.py`` are built from them).

- :mod:`.api`: :class:`~tests.support.api.Api`, conveniences over Flask's test client;
- :mod:`.servers`: start a real ``tienlen serve`` process and wait until it is healthy;
- :mod:`.processes`: whether a process is still alive;
- :mod:`.tools`: :func:`~tests.support.tools.require_tool`, the one allowed way for a test to skip;
- :mod:`.skips`: the pytest plugin that fails every other skip;
- :mod:`.engine`: explicit deals, scripted actions and forced hands for the engine tests;
- :mod:`.bots`: the types of the bot tests' fixtures and the checks they share.
"""
