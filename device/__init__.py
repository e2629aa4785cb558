"""The appliance: configuration, the table controller, persistence and the command line."""
