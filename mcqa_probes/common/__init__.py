"""Pieces shared by every stage."""
