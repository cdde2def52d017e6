"""The calls of :class:`~tienlen_client.Client`, one module per resource, each a class the client is made of.

- :mod:`.base`: the one kept-alive connection, and how a call is sent (once, or retried and checked);
- :mod:`.matches`: matches (create, join, read, events, replay, the fair deal), the presets, the health;
- :mod:`.rooms`: a room code's match, and joining it;
- :mod:`.accounts`: accounts, sessions, personal tokens, the account's settings;
- :mod:`.players`: a player's profile, matches and export, and the leaderboard;
- :mod:`.challenges`: challenges, and answering them;
- :mod:`.inbox`: the account's inbox events (a bot's one connection), and the bots online;
- :mod:`.queue`: quick play's tickets;
- :mod:`.tournaments`: tournaments (create, list, enter, withdraw, cancel, standings, events);
- :mod:`.lessons`: the first lesson's steps, and an action tried in one;
- :mod:`.moderation`: the moderators' acts (the moderator token): reports, messages, mutes, closing, the audit;
- :mod:`.bodies`: what the calls put in a path or a body.
"""
