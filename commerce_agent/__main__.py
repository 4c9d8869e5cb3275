from commerce_agent.cli import main

main()
