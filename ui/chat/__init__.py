"""What only the chat-formats page uses: one card per format (``views``)."""
