"""The Condottiere table: its screen, its map, its questions, its drawing and its words."""
