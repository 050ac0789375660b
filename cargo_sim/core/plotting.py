"""What every game's figures share (docs/figures.md): one legend per figure."""


def legend(fig, note=None, handles=None, labels=None):
    """One legend for the figure, outside the axes on the right, so it never
    covers data; ``note`` (what bars and bands mean) is its title. Without
    ``handles``, every labelled artist of the figure's axes, once per label."""
    if handles is None:
        handles, labels = [], []
        for ax in fig.axes:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
    return fig.legend(handles, labels, loc="outside right upper", fontsize=8, title=note,
                      title_fontsize=8, alignment="left")
