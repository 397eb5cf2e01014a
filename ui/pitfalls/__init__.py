"""Helpers of the "Pitfalls" page: pure HTML builders (``render``) and one view per case (``views``)."""
