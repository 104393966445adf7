"""The Court of the Medici table: its screen, its questions, its drawing and its words."""
