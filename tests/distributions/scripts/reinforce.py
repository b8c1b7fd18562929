"""REINFORCE (Williams, 1992) in the style of pytorch/examples' reinforce.py: a policy
network samples actions from a Categorical, and the loss is -log_prob(action) times the
normalised discounted return. The environment is a corridor of 6 cells written in
tensors (16 episodes at once): moving right reaches the goal (+1), each step costs 0.05.
A plain PyTorch script (only the import names glasstorch); prints one line per step
(the cost is minus the mean return)."""
import sys

import glasstorch as torch

nn = torch.nn
F = torch.nn.functional
CELLS, HORIZON, EPISODES, GAMMA = 6, 10, 16, 0.9


def run_episodes(policy):
    """(log-probabilities of the actions taken, rewards), each HORIZON x EPISODES."""
    position = torch.zeros(EPISODES, dtype=torch.long)
    log_probs, rewards = [], []
    for _ in range(HORIZON):
        state = F.one_hot(position, CELLS).float()
        m = torch.distributions.Categorical(logits=policy(state))
        action = m.sample()
        log_probs.append(m.log_prob(action))
        position = (position + 2 * action - 1).clamp(0, CELLS - 1)
        rewards.append((position == CELLS - 1).float() - 0.05)
    return torch.stack(log_probs), torch.stack(rewards)


def discounted_returns(rewards):
    returns, running = [], torch.zeros(EPISODES)
    for reward in reversed(rewards.unbind(0)):
        running = reward + GAMMA * running
        returns.insert(0, running)
    returns = torch.stack(returns)
    return (returns - returns.mean()) / (returns.std() + 1e-6)


def main(steps: int) -> None:
    torch.manual_seed(543)
    policy = nn.Sequential(nn.Linear(CELLS, 16), nn.Tanh(), nn.Linear(16, 2))
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for step in range(steps):
        log_probs, rewards = run_episodes(policy)
        loss = -(log_probs * discounted_returns(rewards)).sum(0).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        cost = -rewards.sum(0).mean()             # falls as the policy learns
        print(f"step {step} loss {loss.item():.6f} cost {cost.item():.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
