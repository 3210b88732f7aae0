"""Tests of hookgrad.debug."""
