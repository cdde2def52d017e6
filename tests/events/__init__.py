"""Tests of the event vocabulary: the dataclasses, the store's and the wire's codecs, the derived API schemas, and
how a match ended."""
